// The webhook write benchmark (bench/webhooks.mjs): the default deployment's settings, one
// collection of its own, webhook receivers allowed on loopback (the benchmark's receiver listens on
// 127.0.0.1), and limits far above what a run sends (as bench/default.config.mjs).
export default {
  apiKeys: { rateLimit: { max: 10_000_000, windowSeconds: 3600 } },
  rateLimit: { max: 1_000_000_000, windowSeconds: 60 },
  webhooks: { allowPrivateNetworks: true },
  collections: [
    {
      slug: 'posts-hooks',
      fields: [
        { name: 'title', type: 'text' },
        { name: 'views', type: 'number' },
        { name: 'body', type: 'textarea' },
      ],
    },
  ],
};
