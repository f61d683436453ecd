import { isEmail } from 'class-validator';
import type { DataSource } from 'typeorm';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { RbacRepository, SUPER_ADMIN_SLUG } from '../rbac/rbac.repository';
import { UsersRepository } from '../users/users.repository';
import { hashPassword, passwordProblem } from './passwords';

/**
 * Creates a super-admin (SPEC 5.6): `email` and `password` are required (VALIDATION_ERROR when
 * missing); there are no default credentials. The address counts as verified.
 */
export async function seedSuperAdmin(
  ds: DataSource,
  input: { email?: string; password?: string; name?: string },
): Promise<{ id: string; email: string }> {
  const email = input.email?.trim();
  const issues: ValidationIssue[] = [];
  if (!email) {
    issues.push({ path: 'email', code: 'required', message: 'email is required' });
  } else if (!isEmail(email)) {
    issues.push({ path: 'email', code: 'isEmail', message: 'email must be a valid email address' });
  }
  if (!input.password) {
    issues.push({ path: 'password', code: 'required', message: 'password is required' });
  } else {
    const problem = passwordProblem(input.password);
    if (problem) {
      issues.push({ path: 'password', code: 'passwordStrength', message: `password ${problem}` });
    }
  }
  if (issues.length) {
    throw ServiceError.validation(issues, issues.map((i) => i.message).join('; '));
  }
  const passwordHash = await hashPassword(input.password!);
  const users = new UsersRepository();
  const rbac = new RbacRepository();
  return ds.transaction(async (em) => {
    if (await users.findAccountByEmail(em, email!)) {
      throw new ServiceError('DUPLICATE', `A user with the email ${email} already exists`);
    }
    const roleId = await rbac.findRoleIdBySlug(em, SUPER_ADMIN_SLUG);
    if (!roleId) {
      throw new ServiceError('INTERNAL_ERROR', 'The Super Admin role is missing; run the migrations');
    }
    const id = await users.insertUser(em, {
      email: email!,
      name: input.name?.trim() || email!,
      passwordHash,
      verified: true,
    });
    await users.addRole(em, id, roleId);
    return { id, email: email! };
  });
}
