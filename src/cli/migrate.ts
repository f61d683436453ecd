import 'reflect-metadata';
import { runMigrations } from '../database/data-source';
import { parseCliArgs } from './args';
import { runCli, withCliDatabase } from './database';

const USAGE = `Usage: npm run migrate

Applies pending migrations (for a service run with SVC_AUTO_MIGRATE=false). The database is
DATABASE_URL's, else the embedded PostgreSQL of SVC_DATA_DIR (./.svc): the running service's
own server when the service is up.

Options:
  -h, --help  show this text
`;

/** `npm run migrate`: applies pending migrations to the database the server would use. */
runCli(async () => {
  if (!parseCliArgs('migrate', USAGE, {})) {
    return;
  }
  await withCliDatabase(async (ds) => {
    const ran = await runMigrations(ds);
    process.stdout.write(ran.length ? `applied: ${ran.join(', ')}\n` : 'the database is up to date\n');
  });
});
