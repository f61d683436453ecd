import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source';

/**
 * The DataSource the TypeORM CLI uses (`npx typeorm -d dist/ormconfig.js migration:show`), with the
 * same options as the app. It needs DATABASE_URL; `npm run migrate` also handles the embedded database.
 */
const url = process.env.DATABASE_URL;
if (!url) {
  throw new Error('ormconfig.ts needs DATABASE_URL; use `npm run migrate` for the embedded database');
}
export default new DataSource(dataSourceOptions({ url, poolSize: 2 }));
