// Runs the service from source in a child process (`node -r ./test/utils/swc-register.cjs
// src/main.ts`): .ts files are compiled by swc as the tests compile them (decorator metadata
// included, which Nest's dependency injection needs). For tests that kill or restart a real
// server process; no build needed.
const { transformSync } = require('@swc/core');
const fs = require('node:fs');

const OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...OPTIONS, filename });
  module._compile(code, filename);
};
