import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];

/**
 * The command line's options (strict: an unknown option or a stray argument is an error), or
 * `undefined` once `--help` printed the usage. `script` is the npm script's name, for the hint.
 */
export function parseCliArgs<O extends Options>(
  script: string,
  usage: string,
  options: O,
  args = process.argv.slice(2),
): Values<O> | undefined {
  missingDashDash(script, Object.keys(options), args);
  const { values } = parseArgs({
    args,
    options: { ...options, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if ((values as { help?: boolean }).help) {
    process.stdout.write(usage);
    return undefined;
  }
  return values as Values<O>;
}

/**
 * `npm run seed:admin --email a@b.co` (no `--`) hands the options to npm: it keeps them as its
 * own settings (`npm_config_email`, ...) and runs the command without them, sometimes with their
 * values as stray arguments. That is told apart here, before "email is required" or "unexpected
 * argument" would send the user looking in the wrong place.
 */
function missingDashDash(script: string, names: string[], args: string[]): void {
  if (args.some((a) => a.startsWith('-'))) {
    return;
  }
  const kept = names.filter((n) => process.env[`npm_config_${n.replace(/-/g, '_')}`] !== undefined);
  if (kept.length) {
    throw new Error(
      `npm took ${kept.map((n) => `--${n}`).join(', ')} for itself: options go after \`--\`, ` +
        `as in \`npm run ${script} -- ${kept.map((n) => `--${n} ...`).join(' ')}\``,
    );
  }
}
