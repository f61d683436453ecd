import semver from 'semver';
import { isSameOriginPath } from '../../common/redirects';
import type { PluginDefinition, ProviderButton } from './plugin.types';

/**
 * Addresses the specification reserves for a shipped plugin (SPEC 4.2 note 3), by plugin slug:
 * the only values `mountPath` may take.
 */
const RESERVED_MOUNTS: ReadonlyMap<unknown, string> = new Map([['admin/api/forms', 'form-builder']]);

export const PLUGIN_SLUG = /^[a-z][a-z0-9-]{1,40}$/;
export const CAPABILITIES = ['auth.login'] as const;
export const HOOK_NAMES = [
  'beforeLogin',
  'afterAuthenticate',
  'afterLogin',
  'beforeRegister',
  'afterRegister',
  'beforeLogout',
  'afterLogout',
  'determineUser',
  'customizeClaims',
] as const;
/** Challenge ids the core uses itself (the forced password change pauses a login too). */
const CORE_CHALLENGES = new Set(['set-initial-password']);

export interface CheckedPlugins {
  plugins: PluginDefinition[];
  /** Login-page buttons left out (SPEC 5.7.7), each with why: the boot log reports them. */
  droppedProviders: string[];
}

/**
 * The `plugins` of the config, checked at boot (pure: unit-tested). Every problem is collected
 * and thrown as one error naming each, so an operator fixes them in one go; a plugin that needs
 * a newer service is refused by name. Provider buttons that cannot be shown are dropped, not
 * refused: the rest of the plugin works without them.
 */
export function checkPlugins(input: unknown, serviceVersion: string): CheckedPlugins {
  if (input === undefined) {
    return { plugins: [], droppedProviders: [] };
  }
  const problems: string[] = [];
  const droppedProviders: string[] = [];
  if (!Array.isArray(input)) {
    throw new Error('config.plugins must be an array of plugins (definePlugin)');
  }
  const slugs = new Set<string>();
  const challengeIds = new Set<string>();
  const plugins: PluginDefinition[] = [];
  input.forEach((raw: unknown, i) => {
    if (!isObject(raw)) {
      problems.push(`plugins[${i}] must be an object (definePlugin({...}))`);
      return;
    }
    const p = raw as Record<string, unknown>;
    const name = typeof p.slug === 'string' && p.slug ? `plugin "${p.slug}"` : `plugins[${i}]`;
    const problem = (text: string) => problems.push(`${name}: ${text}`);
    if (typeof p.slug !== 'string' || !PLUGIN_SLUG.test(p.slug)) {
      problem(`slug must match ${String(PLUGIN_SLUG)}`);
    } else if (slugs.has(p.slug)) {
      problem('slug is used by another plugin');
    } else {
      slugs.add(p.slug);
    }
    if (typeof p.version !== 'string' || semver.valid(p.version) !== p.version) {
      problem('version must be a semantic version (for example "1.0.0")');
    }
    if (
      typeof p.minServiceVersion !== 'string' ||
      semver.valid(p.minServiceVersion) !== p.minServiceVersion
    ) {
      problem('minServiceVersion must be a semantic version (for example "0.1.0")');
    } else if (semver.lt(serviceVersion, p.minServiceVersion)) {
      problem(`needs svc ${p.minServiceVersion} or later; this is ${serviceVersion}`);
    }
    if (p.capabilities !== undefined) {
      if (!Array.isArray(p.capabilities)) {
        problem(`capabilities must be an array of ${CAPABILITIES.join(', ')}`);
      } else {
        for (const c of p.capabilities) {
          if (!(CAPABILITIES as readonly unknown[]).includes(c)) {
            problem(`unknown capability ${JSON.stringify(c)} (known: ${CAPABILITIES.join(', ')})`);
          }
        }
      }
    }
    if (p.hooks !== undefined) {
      if (!isObject(p.hooks)) {
        problem('hooks must be an object of functions');
      } else {
        for (const [hook, fn] of Object.entries(p.hooks)) {
          if (!(HOOK_NAMES as readonly string[]).includes(hook)) {
            problem(`unknown hook "${hook}" (known: ${HOOK_NAMES.join(', ')})`);
          } else if (fn !== undefined && typeof fn !== 'function') {
            problem(`hook "${hook}" must be a function`);
          }
        }
      }
    }
    if (p.challenges !== undefined) {
      if (!Array.isArray(p.challenges)) {
        problem('challenges must be an array');
      } else {
        p.challenges.forEach((c: unknown, j) => {
          if (!isObject(c) || typeof c.id !== 'string' || !c.id || typeof c.resolve !== 'function') {
            problem(`challenges[${j}] needs an id (a non-empty string) and a resolve function`);
            return;
          }
          if (CORE_CHALLENGES.has(c.id) || challengeIds.has(c.id)) {
            problem(`challenge id "${c.id}" is used already`);
          }
          if (c.uiHint !== undefined && typeof c.uiHint !== 'string') {
            problem(`challenge "${c.id}": uiHint must be a string`);
          }
          challengeIds.add(c.id);
        });
      }
    }
    if (p.module !== undefined && typeof p.module !== 'function') {
      problem('module must be a function of the plugin context returning a Nest DynamicModule');
    }
    if (
      p.secondFactor !== undefined &&
      (!isObject(p.secondFactor) || typeof p.secondFactor.isEnrolled !== 'function')
    ) {
      problem('secondFactor must be { isEnrolled(userId, ctx) }');
    }
    if (p.mountPath !== undefined && (RESERVED_MOUNTS.get(p.mountPath) !== p.slug || !p.module)) {
      problem(
        `mountPath ${JSON.stringify(p.mountPath)} is not an address reserved for this plugin ` +
          '(plugin routes live under /admin/api/plugins/<slug>)',
      );
    }
    if (p.migrations !== undefined) {
      const names = new Set<string>();
      if (!Array.isArray(p.migrations)) {
        problem('migrations must be an array of { name, up }');
      } else {
        p.migrations.forEach((m: unknown, j) => {
          if (!isObject(m) || typeof m.name !== 'string' || !m.name || typeof m.up !== 'string') {
            problem(`migrations[${j}] needs a name and an up (SQL) string`);
          } else if (names.has(m.name)) {
            problem(`migration "${m.name}" is listed twice`);
          } else {
            names.add(m.name);
          }
        });
      }
    }
    let ui = p.ui as PluginDefinition['ui'];
    if (ui !== undefined) {
      if (!isObject(ui)) {
        problem('ui must be an object');
        ui = undefined;
      } else if (ui.providers !== undefined && !Array.isArray(ui.providers)) {
        problem('ui.providers must be an array');
      } else if (ui.providers) {
        const kept: ProviderButton[] = [];
        ui.providers.forEach((b: unknown, j) => {
          const why = buttonProblem(b);
          if (why) {
            droppedProviders.push(`${name}: ui.providers[${j}] left off the login page: ${why}`);
          } else {
            kept.push(b as ProviderButton);
          }
        });
        ui = { ...ui, providers: kept };
      }
    }
    plugins.push({ ...(p as unknown as PluginDefinition), ...(ui && { ui }) });
  });
  if (problems.length) {
    throw new Error(`config.plugins is not valid:\n- ${problems.join('\n- ')}`);
  }
  return { plugins, droppedProviders };
}

/** Why a login-page button cannot be shown (SPEC 5.7.7), or null. */
function buttonProblem(b: unknown): string | null {
  if (!isObject(b)) {
    return 'not an object';
  }
  if (typeof b.strategy !== 'string' || !b.strategy) {
    return 'no strategy';
  }
  if (typeof b.label !== 'string' || !b.label) {
    return 'no label';
  }
  if (b.href !== undefined) {
    return typeof b.href === 'string' && isSameOriginPath(b.href) ? null : 'href is not a same-origin path';
  }
  return typeof b.component === 'string' && b.component ? null : 'neither an href nor a component';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
