import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { isEmail } from 'class-validator';
import type { DataSource } from 'typeorm';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { SVC_CONNECTION } from '../../config/svc-options';
import { passwordProblem } from '../../common/password-strength';
import { AuditCoreModule } from '../audit/audit-core.module';
import { RbacCoreModule } from '../rbac/rbac-core.module';
import { AccountsService } from './accounts.service';
import { hashPassword } from './passwords';
import { UsersRepository } from './users.repository';

/** The caller's DataSource under the service's connection, for every module of the seeding context. */
@Module({})
class SeedDataSourceModule {
  static of(ds: DataSource): DynamicModule {
    const provider = { provide: getDataSourceToken(SVC_CONNECTION), useValue: ds };
    return { module: SeedDataSourceModule, global: true, providers: [provider], exports: [provider] };
  }
}

/**
 * What seeding needs, in Nest's DI over the caller's DataSource: AccountsService, with the same
 * account writes and Super Admin rule as `POST /auth/setup`, and the role lookup it builds on
 * (RbacCoreModule), and the audit log it writes to (AuditCoreModule). Not AccountsModule or RbacModule: AccountsModule's lifecycle would start the
 * mail queue, and the controllers of both bring DTOs that `seed:admin` run from source (jiti)
 * cannot compile. The caller keeps its DataSource (closing the context leaves it open).
 */
@Module({})
class SeedAdminModule {
  static over(ds: DataSource): DynamicModule {
    return {
      module: SeedAdminModule,
      imports: [SeedDataSourceModule.of(ds), RbacCoreModule, AuditCoreModule],
      providers: [UsersRepository, AccountsService],
    };
  }
}

/**
 * Creates a super-admin (SPEC 5.6): `email` and `password` are required (VALIDATION_ERROR when
 * missing); there are no default credentials. The address counts as verified. The account is
 * written by AccountsService in a short-lived Nest context over `ds` (its start is logged through
 * the process's Nest logger, which the `seed:admin` command turns off).
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
  const context = await NestFactory.createApplicationContext(SeedAdminModule.over(ds));
  try {
    const id = await context.get(AccountsService).seedSuperAdmin({
      email: email!,
      name: input.name?.trim() || email!,
      passwordHash,
    });
    return { id, email: email! };
  } finally {
    await context.close();
  }
}
