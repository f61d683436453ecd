import type { PluginDefinition } from './plugin.types';

/** Declares a plugin (CONTRACTS 10): the definition as given, typed; the boot validates it. */
export function definePlugin<T extends PluginDefinition>(plugin: T): T {
  return plugin;
}
