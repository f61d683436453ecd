// A stand-in for the server process: starts the embedded PostgreSQL through the service's own
// launcher (TypeScript, loaded with jiti), prints READY, and stops it cleanly on SIGTERM. With
// --pick-free-port it takes a free port when the given one is in use, as the service does when
// SVC_EMBEDDED_PG_PORT is unset. Giving up on a dead postgres is left to the launcher's default
// (exit status 1), which the service uses as well.
const { createJiti } = require('jiti');
const jiti = createJiti(__filename);
const [dataDir, port, ...flags] = process.argv.slice(2);

jiti
  .import(require.resolve('../../src/database/embedded-postgres.ts'))
  .then((m) =>
    m.startEmbeddedPostgres({
      dataDir,
      port: Number(port),
      pickFreePort: flags.includes('--pick-free-port'),
      database: 'svc',
      log: (level, message) => {
        if (level !== 'info') {
          process.stderr.write(`[${level}] ${message}\n`);
        }
      },
    }),
  )
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
