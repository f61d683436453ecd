import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { runMigrations } from '../database/data-source';
import { seedSuperAdmin } from '../modules/accounts/seed-admin';
import { parseCliArgs } from './args';
import { runCli, withCliDatabase } from './database';

const USAGE = `Usage: npm run seed:admin -- --email <address> --password <password> [--name <name>]

Creates a super-admin account whose address counts as verified, after applying pending
migrations. The database is DATABASE_URL's, else the embedded PostgreSQL of SVC_DATA_DIR
(./.svc): the running service's own server when the service is up.

Options:
  --email <address>      the account's email address (required)
  --password <password>  its password (required; the password rules apply)
  --name <name>          its display name
  -h, --help             show this text
`;

/** `npm run seed:admin -- --email a@b.co --password '...' [--name 'Ada']` */
runCli(async () => {
  const values = parseCliArgs('seed:admin', USAGE, {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
  });
  if (!values) {
    return;
  }
  // The account is written in a small Nest context (seedSuperAdmin): its start-up lines must not
  // mix with the command's one-line answer.
  Logger.overrideLogger(false);
  await withCliDatabase(async (ds) => {
    await runMigrations(ds);
    const admin = await seedSuperAdmin(ds, values);
    process.stdout.write(`super-admin ${admin.email} created (id ${admin.id})\n`);
  });
});
