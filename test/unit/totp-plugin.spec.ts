import { createHash } from 'node:crypto';
import { authenticator } from 'otplib';
import { totpPlugin } from '../../src/plugins/totp';
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  matchStep,
  newSecret,
  normalizeRecoveryCode,
  normalizeTotpCode,
  otpauthUrl,
  timeStep,
} from '../../src/plugins/totp/totp.codes';
import { resolveTotpOptions } from '../../src/plugins/totp/totp.options';
import type { PluginContext, PluginDefinition } from '../../src/plugins/api';

/** What an authenticator app shows for `secret` at `epochSeconds` (otplib's own generator). */
function appCode(secret: string, epochSeconds: number): string {
  return authenticator.clone({ epoch: epochSeconds * 1000 }).generate(secret);
}

// 15 s into a step, so one step either side is 30 s away.
const NOW = 1_700_000_025;
const STEP = timeStep(NOW);

describe('totp codes', () => {
  const secret = newSecret();

  it('makes 160-bit base32 secrets', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 32 base32 characters = 160 bits
    expect(newSecret()).not.toBe(secret);
  });

  it('computes RFC 6238 step numbers', () => {
    expect(STEP).toBe(56_666_667);
    expect(timeStep(59)).toBe(1);
    expect(timeStep(60)).toBe(2);
  });

  it('verifies the RFC 6238 SHA-1 test vectors (6-digit tail)', () => {
    // RFC 6238 appendix B: seed "12345678901234567890", 8 digits 94287082 at T=59, 07081804 at 1111111109.
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(matchStep(rfcSecret, '287082', { window: 0, epochSeconds: 59 })).toBe(1);
    expect(matchStep(rfcSecret, '081804', { window: 0, epochSeconds: 1_111_111_109 })).toBe(
      timeStep(1_111_111_109),
    );
  });

  it('accepts the current code and one step either side with window 1, not two', () => {
    expect(matchStep(secret, appCode(secret, NOW), { window: 1, epochSeconds: NOW })).toBe(STEP);
    expect(matchStep(secret, appCode(secret, NOW - 30), { window: 1, epochSeconds: NOW })).toBe(STEP - 1);
    expect(matchStep(secret, appCode(secret, NOW + 30), { window: 1, epochSeconds: NOW })).toBe(STEP + 1);
    expect(matchStep(secret, appCode(secret, NOW - 60), { window: 1, epochSeconds: NOW })).toBeNull();
    expect(matchStep(secret, appCode(secret, NOW + 60), { window: 1, epochSeconds: NOW })).toBeNull();
  });

  it('window 0 accepts the current step only; window 2 two steps back', () => {
    expect(matchStep(secret, appCode(secret, NOW), { window: 0, epochSeconds: NOW })).toBe(STEP);
    expect(matchStep(secret, appCode(secret, NOW - 30), { window: 0, epochSeconds: NOW })).toBeNull();
    expect(matchStep(secret, appCode(secret, NOW - 60), { window: 2, epochSeconds: NOW })).toBe(STEP - 2);
  });

  it('refuses a step at or before the last accepted one (replay)', () => {
    const code = appCode(secret, NOW);
    expect(matchStep(secret, code, { window: 1, epochSeconds: NOW, lastStep: STEP })).toBeNull();
    expect(matchStep(secret, code, { window: 1, epochSeconds: NOW, lastStep: STEP + 1 })).toBeNull();
    expect(matchStep(secret, code, { window: 1, epochSeconds: NOW, lastStep: STEP - 1 })).toBe(STEP);
    expect(matchStep(secret, code, { window: 1, epochSeconds: NOW, lastStep: null })).toBe(STEP);
    // The previous step's code is refused once the current step was used, the next one still passes.
    const previous = appCode(secret, NOW - 30);
    expect(matchStep(secret, previous, { window: 1, epochSeconds: NOW, lastStep: STEP })).toBeNull();
    const next = appCode(secret, NOW + 30);
    expect(matchStep(secret, next, { window: 1, epochSeconds: NOW, lastStep: STEP })).toBe(STEP + 1);
  });

  it('refuses wrong, malformed and foreign codes; accepts spaces inside a code', () => {
    const code = appCode(secret, NOW);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(matchStep(secret, wrong, { window: 1, epochSeconds: NOW })).toBeNull();
    expect(matchStep(newSecret(), code, { window: 1, epochSeconds: NOW })).toBeNull();
    for (const bad of ['', '12345', '1234567', 'abcdef', '12345a', `${code}0`]) {
      expect(matchStep(secret, bad, { window: 1, epochSeconds: NOW })).toBeNull();
    }
    expect(matchStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, { window: 1, epochSeconds: NOW })).toBe(
      STEP,
    );
    expect(normalizeTotpCode(' 123 456 ')).toBe('123456');
    expect(normalizeTotpCode('123-456')).toBeNull();
  });

  it('uses the current time by default', () => {
    expect(matchStep(secret, authenticator.generate(secret), { window: 1 })).not.toBeNull();
  });
});

describe('otpauth URL', () => {
  it('names issuer, account, secret and the RFC 6238 parameters', () => {
    const secret = newSecret();
    const url = otpauthUrl('svc', 'ada+2fa@example.com', secret);
    expect(url.startsWith('otpauth://totp/svc:ada%2B2fa%40example.com?')).toBe(true);
    const params = new URLSearchParams(url.slice(url.indexOf('?') + 1));
    expect(Object.fromEntries(params)).toEqual({
      secret,
      issuer: 'svc',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });

  it('encodes an issuer with spaces', () => {
    const url = otpauthUrl('My Site', 'a@example.com', newSecret());
    expect(url).toMatch(/^otpauth:\/\/totp\/My%20Site:a%40example\.com\?/);
    expect(url).toContain('issuer=My%20Site');
  });
});

describe('recovery codes', () => {
  it('makes distinct xxxxx-xxxxx base32 codes', () => {
    const codes = generateRecoveryCodes(10);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) {
      expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    }
    expect(generateRecoveryCodes(3)).toHaveLength(3);
  });

  it('normalizes: lower case, dashes and spaces removed', () => {
    expect(normalizeRecoveryCode('ABCDE-FGHIJ')).toBe('abcdefghij');
    expect(normalizeRecoveryCode(' abcde fghij ')).toBe('abcdefghij');
    expect(normalizeRecoveryCode('abcdefghij')).toBe('abcdefghij');
    expect(normalizeRecoveryCode('abcde-fghi')).toBeNull(); // too short
    expect(normalizeRecoveryCode('abcde-fghi1')).toBeNull(); // 1 is not base32
    expect(normalizeRecoveryCode('123456')).toBeNull(); // a TOTP code is not a recovery code
  });

  it('hashes the normalized form with SHA-256', () => {
    const [code] = generateRecoveryCodes(1);
    const hash = hashRecoveryCode(code);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(code.replace('-', '')).digest('hex'));
    expect(hashRecoveryCode(code.toUpperCase())).toBe(hash);
    expect(hashRecoveryCode(code.replace('-', ' '))).toBe(hash);
    expect(hashRecoveryCode(code.replace('-', ''))).toBe(hash);
    expect(hash).not.toContain(code.replace('-', ''));
  });
});

describe('totpPlugin()', () => {
  it('resolves options with defaults and refuses unusable ones', () => {
    expect(resolveTotpOptions()).toEqual({ issuer: undefined, window: 1, recoveryCodes: 10 });
    expect(resolveTotpOptions({ issuer: 'Acme', window: 2, recoveryCodes: 5 })).toEqual({
      issuer: 'Acme',
      window: 2,
      recoveryCodes: 5,
    });
    expect(() => totpPlugin({ window: -1 })).toThrow(/window/);
    expect(() => totpPlugin({ window: 1.5 })).toThrow(/window/);
    expect(() => totpPlugin({ recoveryCodes: 0 })).toThrow(/recoveryCodes/);
    expect(() => totpPlugin({ issuer: 'a:b' })).toThrow(/issuer/);
  });

  it('declares slug, versions, migrations, the totp challenge and its view', () => {
    const p = totpPlugin();
    expect(p).toMatchObject({ slug: 'totp', version: '1.0.0', minServiceVersion: '0.1.0' });
    expect((p as PluginDefinition).capabilities).toBeUndefined();
    expect(p.migrations.map((m) => m.name)).toEqual(['001-factors', '002-recovery-codes']);
    expect(p.migrations[0].up).toMatch(/CREATE TABLE plugin_totp_factors/);
    expect(p.migrations[1].up).toMatch(/CREATE TABLE plugin_totp_recovery_codes/);
    expect(p.challenges).toHaveLength(1);
    expect(p.challenges[0]).toMatchObject({
      id: 'totp',
      uiHint: 'Enter the 6-digit code from your authenticator app',
    });
    expect(p.ui.challengeViews).toEqual({
      totp: { kind: 'code', digits: 6, label: 'Authentication code', recoveryCodes: true },
    });
    expect(typeof p.module).toBe('function');
  });

  it('challenges an account only when TOTP is enabled', async () => {
    const p = totpPlugin();
    const ctxWith = (rows: unknown[]) =>
      ({ db: { query: async () => rows, transaction: async () => undefined } }) as unknown as PluginContext;
    const user = {
      id: 'u1',
      email: 'a@example.com',
      name: 'A',
      image: null,
      roleIds: [],
      isActive: true,
      emailVerified: true,
    };
    await expect(p.hooks.afterAuthenticate(user, ctxWith([{ '?column?': 1 }]))).resolves.toEqual({
      challenge: { id: 'totp', userId: 'u1' },
    });
    await expect(p.hooks.afterAuthenticate(user, ctxWith([]))).resolves.toBeUndefined();
  });

  it('refuses a challenge answer without a code before touching the database', async () => {
    const p = totpPlugin();
    const ctx = {
      db: {
        query: () => {
          throw new Error('no database expected');
        },
      },
    } as unknown as PluginContext;
    for (const response of [undefined, null, 'x', {}, { code: 5 }, { code: '  ' }]) {
      await expect(p.challenges[0].resolve({ userId: 'u1', response }, ctx)).resolves.toMatchObject({
        ok: false,
      });
    }
    // Neither a TOTP nor a recovery code shape: refused without a query.
    await expect(p.challenges[0].resolve({ userId: 'u1', response: { code: 'nope' } }, ctx)).resolves.toEqual(
      {
        ok: false,
        reason: expect.any(String),
      },
    );
  });
});
