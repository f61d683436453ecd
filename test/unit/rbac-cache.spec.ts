import type { DataSource } from 'typeorm';
import type { RbacRepository } from '../../src/modules/rbac/rbac.repository';
import { RbacService } from '../../src/modules/rbac/rbac.service';

/** A repository whose answers the test releases by hand, to interleave reads with invalidate(). */
function fakeRepo() {
  const pending: Array<() => void> = [];
  let permissions = ['read-users'];
  const calls = { resolve: 0, catalogue: 0 };
  const repo = {
    resolve: jest.fn(async () => {
      calls.resolve++;
      const value = { isSuperAdmin: false, permissions: [...permissions] };
      await new Promise<void>((release) => pending.push(release));
      return value;
    }),
    allPermissionSlugs: jest.fn(async () => {
      calls.catalogue++;
      const value = [...permissions];
      await new Promise<void>((release) => pending.push(release));
      return value;
    }),
  };
  return {
    repo: repo as unknown as RbacRepository,
    calls,
    grant: (p: string) => {
      permissions = [...permissions, p].sort();
    },
    releaseAll: () => pending.splice(0).forEach((release) => release()),
  };
}

describe('RbacService cache', () => {
  const db = { manager: {} } as unknown as DataSource;

  it('serves a role set from the cache once read', async () => {
    const f = fakeRepo();
    const rbac = new RbacService(db, f.repo, null);
    const first = rbac.resolve(['b', 'a']);
    f.releaseAll();
    await first;
    expect(await rbac.resolve(['a', 'b'])).toEqual({ isSuperAdmin: false, permissions: ['read-users'] });
    expect(f.calls.resolve).toBe(1);
  });

  it('does not store a read that started before invalidate() (no stale value put back)', async () => {
    const f = fakeRepo();
    const rbac = new RbacService(db, f.repo, null);
    const stale = rbac.resolve(['a']); // reads the old rows ...
    f.grant('update-users'); // ... a write commits ...
    rbac.invalidate(); // ... and clears the cache
    f.releaseAll();
    expect((await stale).permissions).toEqual(['read-users']);

    const fresh = rbac.resolve(['a']);
    f.releaseAll();
    expect((await fresh).permissions).toEqual(['read-users', 'update-users']);
    expect(f.calls.resolve).toBe(2);
    expect((await rbac.resolve(['a'])).permissions).toEqual(['read-users', 'update-users']);
    expect(f.calls.resolve).toBe(2);
  });

  it('treats the catalogue the same way', async () => {
    const f = fakeRepo();
    const rbac = new RbacService(db, f.repo, null);
    const stale = rbac.catalogue();
    f.grant('sign-contracts');
    rbac.invalidate();
    f.releaseAll();
    expect(await stale).toEqual(['read-users']);
    const fresh = rbac.catalogue();
    f.releaseAll();
    expect(await fresh).toEqual(['read-users', 'sign-contracts']);
    expect(await rbac.catalogue()).toEqual(['read-users', 'sign-contracts']);
    expect(f.calls.catalogue).toBe(2);
  });

  it('answers an empty role set without a query', async () => {
    const f = fakeRepo();
    const rbac = new RbacService(db, f.repo, null);
    expect(await rbac.resolve([])).toEqual({ isSuperAdmin: false, permissions: [] });
    expect(f.calls.resolve).toBe(0);
  });
});
