import 'reflect-metadata';

process.env.NODE_ENV = 'test';

// Every supertest answer of an app createTestApp booted is checked against its OpenAPI document.
// eslint-disable-next-line @typescript-eslint/no-require-imports
(require('./openapi-conformance') as typeof import('./openapi-conformance')).installConformanceCheck();
