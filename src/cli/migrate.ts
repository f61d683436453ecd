import 'reflect-metadata';
import { runMigrations } from '../database/data-source';
import { runCli, withCliDatabase } from './database';

/** `npm run migrate`: applies pending migrations to the database the server would use. */
runCli(() =>
  withCliDatabase(async (ds) => {
    const ran = await runMigrations(ds);
    process.stdout.write(ran.length ? `applied: ${ran.join(', ')}\n` : 'the database is up to date\n');
  }),
);
