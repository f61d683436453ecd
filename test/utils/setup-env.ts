import 'reflect-metadata';
import { installConformanceCheck } from './openapi-conformance';

process.env.NODE_ENV = 'test';

// Every supertest answer of an app createTestApp booted is checked against its OpenAPI document.
installConformanceCheck();
