import bcrypt from 'bcrypt';

/** Fixed by the spec (SPEC 8): not configurable. */
export const BCRYPT_ROUNDS = 12;

/**
 * A real bcrypt(12) hash of a random string: compared against when an account is unknown (or has
 * no password), so a refusal costs the same bcrypt work as a wrong password.
 */
const DUMMY_HASH = '$2b$12$NC9KC87mQAk98v7iugzRte3CSeSMYvfsJYhEd6AhE38tv.LeR4cSa';

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash ?? DUMMY_HASH);
  return ok && hash !== null;
}
