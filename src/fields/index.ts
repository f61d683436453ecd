/**
 * The field rules user fields and content share: names, labels, options, value checks, JSON and
 * dates. Pure TypeScript (no Nest, no TypeORM, no module of src/modules), so both features use
 * one copy and each unit-tests it in milliseconds.
 */
export * from './dates';
export * from './json';
export * from './labels';
export * from './names';
export * from './options';
export * from './strings';
export * from './types';
export * from './values';
