import { CoreSchema1763721600000 } from './1763721600000-CoreSchema';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests run the same set. */
export const MIGRATIONS = [CoreSchema1763721600000];
