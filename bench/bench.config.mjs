// The service under benchmark: every limiter is on (its counter is incremented on each request,
// in Redis when REDIS_URL is set) but set far above what a run sends, so none ever blocks.
export default {
  rateLimit: { max: 1_000_000_000, windowSeconds: 60 },
  apiKeys: { rateLimit: { max: 1_000_000_000, windowSeconds: 3600 } },
};
