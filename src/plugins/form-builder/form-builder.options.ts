export interface FormBuilderOptions {
  /**
   * Submissions accepted per client address and form in a window (default 10 per 60 s). Counted
   * where the service's budgets are (Redis when REDIS_URL is set), so instances share it.
   */
  submitRateLimit?: { max: number; windowSeconds: number };
}

export interface ResolvedFormBuilderOptions {
  submitRateLimit: { max: number; windowSeconds: number };
}

/** DI tokens of the plugin's module: its PluginContext and its resolved options. */
export const FORM_BUILDER_CONTEXT = Symbol('form-builder:context');
export const FORM_BUILDER_OPTIONS = Symbol('form-builder:options');

const OPTION_KEYS = ['submitRateLimit'];
const BUDGET_KEYS = ['max', 'windowSeconds'];
const MAX_BUDGET = 1_000_000;
/** A day: a longer window is a ban, not a rate limit. */
const MAX_WINDOW_SECONDS = 86_400;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The options with defaults filled in; throws at definition time on a value that cannot work. */
export function resolveFormBuilderOptions(options: FormBuilderOptions = {}): ResolvedFormBuilderOptions {
  if (!isPlainObject(options)) {
    throw new Error('formBuilderPlugin: options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new Error(`formBuilderPlugin: unknown option "${key}" (known: ${OPTION_KEYS.join(', ')})`);
    }
  }
  const limit: unknown = options.submitRateLimit ?? { max: 10, windowSeconds: 60 };
  if (!isPlainObject(limit)) {
    throw new Error('formBuilderPlugin: submitRateLimit must be { max, windowSeconds }');
  }
  for (const key of Object.keys(limit)) {
    if (!BUDGET_KEYS.includes(key)) {
      throw new Error(`formBuilderPlugin: submitRateLimit has no "${key}" (known: max, windowSeconds)`);
    }
  }
  const { max, windowSeconds } = limit;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_BUDGET) {
    throw new Error(`formBuilderPlugin: submitRateLimit.max must be an integer from 1 to ${MAX_BUDGET}`);
  }
  if (
    typeof windowSeconds !== 'number' ||
    !Number.isInteger(windowSeconds) ||
    windowSeconds < 1 ||
    windowSeconds > MAX_WINDOW_SECONDS
  ) {
    throw new Error(
      `formBuilderPlugin: submitRateLimit.windowSeconds must be an integer from 1 to ${MAX_WINDOW_SECONDS}`,
    );
  }
  return { submitRateLimit: { max, windowSeconds } };
}
