/** e2e and unit tests; swc compiles TypeScript (with the decorator metadata Nest's DI needs). */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  globalSetup: '<rootDir>/test/utils/global-setup.ts',
  globalTeardown: '<rootDir>/test/utils/global-teardown.ts',
  // e2e files wait on the database most of the time: two workers keep both cores busy.
  maxWorkers: 2,
  testTimeout: 30000,
  setupFiles: ['<rootDir>/test/utils/setup-env.ts'],
};
