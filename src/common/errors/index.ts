export * from './error-codes';
export * from './service-error';
