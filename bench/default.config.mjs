// The default deployment of the benchmark (issue 16): the service's defaults, but for the
// collections of the content scenarios (the same as bench.config.mjs: both services share one
// database) and the per-key budget a busy server-to-server key is given (10,000,000 an hour; the
// default 1,000 would answer 429 within a second). The global and sign-in limits keep their
// defaults; the global limit skips /admin/api/ as it does by default.
import benchConfig from './bench.config.mjs';

export default {
  apiKeys: { rateLimit: { max: 10_000_000, windowSeconds: 3600 } },
  collections: benchConfig.collections,
};
