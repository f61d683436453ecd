// A stand-in for the server process: starts the embedded PostgreSQL through the service's own
// launcher (TypeScript, loaded with jiti), prints READY, and stops it cleanly on SIGTERM.
const { createJiti } = require('jiti');
const jiti = createJiti(__filename);
const [dataDir, port] = process.argv.slice(2);

jiti
  .import(require.resolve('../../src/database/embedded-postgres.ts'))
  .then((m) => m.startEmbeddedPostgres({ dataDir, port: Number(port), database: 'svc' }))
  .then((db) => {
    process.stdout.write(`READY ${db.url}\n`);
    process.on('SIGTERM', () => db.stop().then(() => process.exit(0)));
    // Bounded: never outlive the test that started it.
    setTimeout(() => process.exit(2), 120_000).unref();
    setInterval(() => undefined, 1000);
  })
  .catch((e) => {
    process.stderr.write(`FAILED ${e && e.message}\n`);
    process.exit(1);
  });
