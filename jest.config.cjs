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
  // lexical 0.52 ships ES modules only: Node 20.19+ loads them from CommonJS (require(esm)), Jest
  // on Node < 24.9 does not, so swc turns them into CommonJS for the tests.
  transform: {
    '^.+\\.ts$': swc,
    '^.+/node_modules/(lexical|@lexical/[^/]+)/.+\\.js$': swc,
    // pg-boss's delay() requires lazily; see the transform's comment.
    '^.+/node_modules/pg-boss/src/tools\\.js$': '<rootDir>/test/utils/pg-boss-tools-transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!(lexical|@lexical/[^/]+|pg-boss/src/tools\\.js)/?)'],
  globalSetup: '<rootDir>/test/utils/global-setup.ts',
  globalTeardown: '<rootDir>/test/utils/global-teardown.ts',
  // Three workers on the two-core CI machine: many files wait (login floors, SMTP, child
  // servers), and a third worker made a pass about a fifth faster than two. The timing checks
  // compare medians of interleaved requests, which contention hits alike (account-timing).
  maxWorkers: 3,
  testTimeout: 30000,
  setupFiles: ['<rootDir>/test/utils/setup-env.ts'],
};
