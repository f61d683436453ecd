// Runs TypeScript sources directly (`node -r ./scripts/swc-register.cjs src/cli/<tool>.ts`): swc
// compiles each .ts file as it is required, with the decorator metadata Nest's DI needs, the
// options the tests use (jest.config.cjs).
const { transformSync } = require('@swc/core');
const Module = require('node:module');
const { readFileSync } = require('node:fs');

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
