import { checkPlugins } from '../../src/modules/plugins/plugin-checks';

/**
 * `checkPlugins` (SPEC 1.7, 6; CONTRACTS 10): the boot check of `config.plugins`. Every problem is
 * collected and thrown as one error naming each; unusable login-page buttons are dropped (and
 * reported), not refused.
 */

const SERVICE = '0.1.0';
const resolve = () => ({ ok: true as const });

const plugin = (o: Record<string, unknown> = {}) => ({
  slug: 'good',
  version: '1.0.0',
  minServiceVersion: '0.1.0',
  ...o,
});

/** The message `checkPlugins` throws, or '' when it accepts. */
function problemsOf(input: unknown, service = SERVICE): string {
  try {
    checkPlugins(input, service);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

/** Each listed problem of the thrown message. */
const listOf = (message: string) => message.split('\n- ').slice(1);

describe('checkPlugins', () => {
  it('accepts no plugins', () => {
    expect(checkPlugins(undefined, SERVICE)).toEqual({ plugins: [], droppedProviders: [] });
    expect(checkPlugins([], SERVICE)).toEqual({ plugins: [], droppedProviders: [] });
  });

  it('refuses a plugins value that is not an array', () => {
    expect(() => checkPlugins({}, SERVICE)).toThrow(/config\.plugins must be an array/);
    expect(() => checkPlugins('x', SERVICE)).toThrow(/config\.plugins must be an array/);
  });

  it('accepts a full plugin, keeping what it defines', () => {
    const hooks = { beforeLogin: () => undefined, customizeClaims: undefined };
    const challenge = { id: 'otp', uiHint: 'Code', resolve };
    const module = () => ({ module: class {} });
    const ui = {
      providers: [{ strategy: 'good:x', label: 'X', href: '/admin/api/plugins/good/x' }],
      slots: { a: 1 },
    };
    const p = plugin({
      capabilities: ['auth.login'],
      hooks,
      challenges: [challenge],
      module,
      migrations: [{ name: '001', up: 'SELECT 1' }],
      ui: {
        providers: [{ strategy: 'good:x', label: 'X', href: '/admin/api/plugins/good/x' }],
        slots: { a: 1 },
      },
    });
    const checked = checkPlugins([p], SERVICE);
    expect(checked.droppedProviders).toEqual([]);
    expect(checked.plugins).toHaveLength(1);
    expect(checked.plugins[0].hooks).toBe(hooks);
    expect(checked.plugins[0].challenges![0]).toBe(challenge);
    expect(checked.plugins[0].module).toBe(module);
    expect(checked.plugins[0].ui).toEqual(ui);
  });

  describe('slug', () => {
    it.each(['ab', 'a1', 'acme-sso', `a${'b'.repeat(40)}`])('accepts %j', (slug) => {
      expect(problemsOf([plugin({ slug })])).toBe('');
    });

    it.each(['a', 'Acme', '1abc', '-abc', 'a_b', 'a.b', 'a b', `a${'b'.repeat(41)}`, '', 7, undefined])(
      'refuses %j',
      (slug) => {
        expect(problemsOf([plugin({ slug })])).toMatch(/slug must match/);
      },
    );

    it('refuses a slug used twice, naming it', () => {
      const message = problemsOf([
        plugin({ slug: 'twin' }),
        plugin({ slug: 'other' }),
        plugin({ slug: 'twin' }),
      ]);
      expect(listOf(message)).toEqual(['plugin "twin": slug is used by another plugin']);
    });
  });

  describe('versions', () => {
    it.each(['1.0', 'one', '', '1.0.0.0', 'v1.0.0', ' 1.0.0', 1, null])(
      'refuses the version %j',
      (version) => {
        expect(problemsOf([plugin({ version })])).toContain(
          'plugin "good": version must be a semantic version',
        );
      },
    );

    it.each(['0.1', 'latest', 0.1, undefined])('refuses the minServiceVersion %j', (minServiceVersion) => {
      expect(problemsOf([plugin({ minServiceVersion })])).toContain(
        'plugin "good": minServiceVersion must be a semantic version',
      );
    });

    it('refuses a plugin that needs a newer service, naming it and both versions', () => {
      expect(listOf(problemsOf([plugin({ slug: 'later', minServiceVersion: '0.1.1' })]))).toEqual([
        'plugin "later": needs svc 0.1.1 or later; this is 0.1.0',
      ]);
      expect(problemsOf([plugin({ minServiceVersion: '1.0.0' })], '0.9.9')).toContain(
        'needs svc 1.0.0 or later',
      );
    });

    it('accepts a plugin for this service or an older one', () => {
      expect(problemsOf([plugin({ minServiceVersion: '0.1.0' })])).toBe('');
      expect(problemsOf([plugin({ minServiceVersion: '0.0.1' })])).toBe('');
      expect(problemsOf([plugin({ minServiceVersion: '0.1.0-rc.1' })])).toBe('');
      expect(problemsOf([plugin({ minServiceVersion: '1.2.3' })], '2.0.0')).toBe('');
    });
  });

  describe('capabilities', () => {
    it('accepts auth.login', () => {
      expect(problemsOf([plugin({ capabilities: ['auth.login'] })])).toBe('');
      expect(problemsOf([plugin({ capabilities: [] })])).toBe('');
    });

    it('refuses an unknown capability, naming it', () => {
      expect(listOf(problemsOf([plugin({ capabilities: ['auth.login', 'db.admin', 7] })]))).toEqual([
        'plugin "good": unknown capability "db.admin" (known: auth.login)',
        'plugin "good": unknown capability 7 (known: auth.login)',
      ]);
    });

    it('refuses capabilities that are not an array', () => {
      expect(problemsOf([plugin({ capabilities: 'auth.login' })])).toContain('capabilities must be an array');
    });
  });

  describe('hooks', () => {
    it('refuses a hook that is not a function, and an unknown hook', () => {
      expect(
        listOf(
          problemsOf([plugin({ hooks: { afterLogin: 'yes', beforeLogin: () => 1, onLogin: () => 1 } })]),
        ),
      ).toEqual([
        'plugin "good": hook "afterLogin" must be a function',
        expect.stringMatching(/^plugin "good": unknown hook "onLogin"/),
      ]);
    });

    it('refuses hooks that are not an object', () => {
      expect(problemsOf([plugin({ hooks: [() => 1] })])).toContain('hooks must be an object of functions');
      expect(problemsOf([plugin({ hooks: () => 1 })])).toContain('hooks must be an object of functions');
    });
  });

  describe('challenges', () => {
    it('refuses an id used twice, across plugins or within one', () => {
      expect(
        listOf(
          problemsOf([
            plugin({ slug: 'one', challenges: [{ id: 'otp', resolve }] }),
            plugin({ slug: 'two', challenges: [{ id: 'otp', resolve }] }),
          ]),
        ),
      ).toEqual(['plugin "two": challenge id "otp" is used already']);
      expect(
        problemsOf([
          plugin({
            challenges: [
              { id: 'a', resolve },
              { id: 'a', resolve },
            ],
          }),
        ]),
      ).toContain('challenge id "a" is used already');
    });

    it("refuses the core's own challenge id", () => {
      expect(problemsOf([plugin({ challenges: [{ id: 'set-initial-password', resolve }] })])).toContain(
        'challenge id "set-initial-password" is used already',
      );
    });

    it('refuses a challenge without an id or a resolve function, and a uiHint that is not a string', () => {
      expect(
        listOf(
          problemsOf([
            plugin({
              challenges: [
                { id: '', resolve },
                { id: 'x' },
                { id: 'y', resolve: 'no' },
                { id: 'z', resolve, uiHint: 3 },
              ],
            }),
          ]),
        ),
      ).toEqual([
        'plugin "good": challenges[0] needs an id (a non-empty string) and a resolve function',
        'plugin "good": challenges[1] needs an id (a non-empty string) and a resolve function',
        'plugin "good": challenges[2] needs an id (a non-empty string) and a resolve function',
        'plugin "good": challenge "z": uiHint must be a string',
      ]);
      expect(problemsOf([plugin({ challenges: { id: 'x', resolve } })])).toContain(
        'challenges must be an array',
      );
    });
  });

  describe('module and migrations', () => {
    it('mounts at a reserved address only the plugin it is reserved for (SPEC 4.2 note 3), with a module', () => {
      const module = () => ({ module: class {} });
      const forms = { slug: 'form-builder', module, mountPath: 'admin/api/forms' };
      expect(problemsOf([plugin(forms)])).toBe('');
      for (const bad of [
        { ...forms, slug: 'forms-too' },
        { ...forms, mountPath: 'admin/api/auth' },
        { ...forms, mountPath: 'admin/api/forms/' },
        { ...forms, mountPath: ['admin/api/forms'] },
        { ...forms, module: undefined },
      ]) {
        expect(problemsOf([plugin(bad)])).toContain('is not an address reserved for this plugin');
      }
    });

    it('refuses a module that is not a function', () => {
      expect(problemsOf([plugin({ module: { module: class {} } })])).toContain('module must be a function');
    });

    it('refuses malformed migrations and a name listed twice', () => {
      expect(
        listOf(
          problemsOf([
            plugin({
              migrations: [
                { name: '001', up: 'SELECT 1' },
                { name: '001', up: 'SELECT 2' },
                { name: '', up: 'x' },
                { name: '3' },
              ],
            }),
          ]),
        ),
      ).toEqual([
        'plugin "good": migration "001" is listed twice',
        'plugin "good": migrations[2] needs a name and an up (SQL) string',
        'plugin "good": migrations[3] needs a name and an up (SQL) string',
      ]);
      expect(problemsOf([plugin({ migrations: 'CREATE TABLE x ()' })])).toContain(
        'migrations must be an array',
      );
    });
  });

  it('names every problem of every plugin in one error', () => {
    const message = problemsOf([
      'not a plugin',
      plugin({ slug: 'Bad' }),
      plugin({ slug: 'dup' }),
      plugin({ slug: 'dup' }),
      plugin({ slug: 'ver', version: 'x', minServiceVersion: '9.0.0' }),
      plugin({ slug: 'cap', capabilities: ['nope'] }),
      plugin({ slug: 'hook', hooks: { afterLogout: 1 } }),
      plugin({ slug: 'ch-a', challenges: [{ id: 'same', resolve }] }),
      plugin({ slug: 'ch-b', challenges: [{ id: 'same', resolve }] }),
    ]);
    expect(message.split('\n')[0]).toBe('config.plugins is not valid:');
    expect(listOf(message)).toEqual([
      'plugins[0] must be an object (definePlugin({...}))',
      expect.stringMatching(/^plugin "Bad": slug must match/),
      'plugin "dup": slug is used by another plugin',
      expect.stringMatching(/^plugin "ver": version must be a semantic version/),
      'plugin "ver": needs svc 9.0.0 or later; this is 0.1.0',
      expect.stringMatching(/^plugin "cap": unknown capability "nope"/),
      'plugin "hook": hook "afterLogout" must be a function',
      'plugin "ch-b": challenge id "same" is used already',
    ]);
  });

  it('names a plugin without a usable slug by its position', () => {
    expect(problemsOf([plugin(), { version: '1.0.0', minServiceVersion: '0.1.0' }])).toContain(
      'plugins[1]: slug must match',
    );
  });

  describe('login-page buttons', () => {
    const button = (o: Record<string, unknown>) => ({ strategy: 'good:x', label: 'X', ...o });

    it('keeps a button with a same-origin href or a component; drops the rest, saying why', () => {
      const kept = [
        button({ href: '/admin/api/plugins/good/start' }),
        button({ href: '/start?a=1&b=%2F' }),
        button({ component: 'GoodButton' }),
      ];
      const dropped = [
        button({ href: 'https://evil.example/' }),
        button({ href: '//evil.example/' }),
        button({ href: '/\\evil.example/' }),
        button({ href: 'javascript:alert(1)' }),
        button({ href: 'start' }),
        button({ href: '/a\nb' }),
        button({ href: 5 }),
        button({ href: '', component: 'Fallback' }),
        button({}),
        button({ component: '' }),
        button({ strategy: '', href: '/x' }),
        { label: 'X', href: '/x' },
        button({ label: '', href: '/x' }),
        button({ label: 3, href: '/x' }),
        'not a button',
        null,
      ];
      const checked = checkPlugins(
        [plugin({ ui: { providers: [...kept, ...dropped], challengeViews: { a: {} } } })],
        SERVICE,
      );
      expect(checked.plugins[0].ui).toEqual({ providers: kept, challengeViews: { a: {} } });
      expect(checked.droppedProviders).toHaveLength(dropped.length);
      expect(checked.droppedProviders[0]).toBe(
        'plugin "good": ui.providers[3] left off the login page: href is not a same-origin path',
      );
      expect(checked.droppedProviders).toEqual(
        expect.arrayContaining([
          'plugin "good": ui.providers[11] left off the login page: neither an href nor a component',
          'plugin "good": ui.providers[13] left off the login page: no strategy',
          'plugin "good": ui.providers[15] left off the login page: no label',
          'plugin "good": ui.providers[17] left off the login page: not an object',
        ]),
      );
    });

    it('a dropped button does not refuse the plugin', () => {
      expect(problemsOf([plugin({ ui: { providers: [{ label: 'no strategy' }] } })])).toBe('');
    });

    it('refuses ui or ui.providers of the wrong shape', () => {
      expect(problemsOf([plugin({ ui: 'login' })])).toContain('ui must be an object');
      expect(problemsOf([plugin({ ui: { providers: {} } })])).toContain('ui.providers must be an array');
    });
  });
});
