// The service under benchmark: every limiter is on (its counter is incremented on each request,
// in Redis when REDIS_URL is set) but set far above what a run sends, so none ever blocks.
//
// Collections of the content-engine scenarios ("content ..."): the service creates their tables at
// boot (c_people, c_posts_10k, c_posts_1m); bench/content-seed.mjs fills them with SQL.
const POST_FIELDS = [
  { name: 'title', type: 'text' },
  { name: 'views', type: 'number', index: true },
  { name: 'body', type: 'textarea' },
  { name: 'author', type: 'relationship', relationTo: 'people' },
  { name: 'editor', type: 'relationship', relationTo: 'people' },
  { name: 'reviewer', type: 'relationship', relationTo: 'people' },
];

export default {
  rateLimit: { max: 1_000_000_000, windowSeconds: 60 },
  apiKeys: { rateLimit: { max: 1_000_000_000, windowSeconds: 3600 } },
  collections: [
    { slug: 'people', fields: [{ name: 'name', type: 'text' }] },
    { slug: 'posts-10k', fields: POST_FIELDS },
    { slug: 'posts-1m', fields: POST_FIELDS },
    // The write scenarios' own table, so the lists above keep their totals.
    { slug: 'posts-writes', fields: POST_FIELDS },
  ],
};
