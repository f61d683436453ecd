/** Library entry: what a host application or a config file imports from the package root. */
export { SvcModule } from './svc.module';
export type { SvcModuleAsyncOptions } from './svc.module';
export type { SvcModuleOptions } from './svc.options';
export { defineConfig } from './config/config-file';
export type * from './config/config.types';
export { ServiceError } from './common/errors/service-error';
export type { ErrorCode } from './common/errors/error-codes';
export { configureApp } from './app.setup';
export { startServer } from './server';
