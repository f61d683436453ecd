import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { runMigrations } from '../database/data-source';
import { seedSuperAdmin } from '../modules/auth/seed-admin';
import { runCli, withCliDatabase } from './database';

/** `npm run seed:admin -- --email a@b.co --password '...' [--name 'Ada']` */
runCli(async () => {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  });
  await withCliDatabase(async (ds) => {
    await runMigrations(ds);
    const admin = await seedSuperAdmin(ds, values);
    process.stdout.write(`super-admin ${admin.email} created (id ${admin.id})\n`);
  });
});
