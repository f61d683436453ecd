// The default deployment of the benchmark (issue 16): the service's defaults, but for the
// collections of the content scenarios (the same as bench.config.mjs: both services share one
// database) and the per-key budget a busy server-to-server key is given (10,000,000 an hour; the
// default 1,000 would answer 429 within a second). The sign-in limit keeps its default.
import benchConfig from './bench.config.mjs';

export default {
  apiKeys: { rateLimit: { max: 10_000_000, windowSeconds: 3600 } },
  // The global per-IP limit (600 a minute by default) would answer every health request of a run
  // from the one load-generator address with 429: raised, with the default skip of /admin/api/.
  rateLimit: { max: 1_000_000_000, windowSeconds: 60 },
  collections: benchConfig.collections,
};
