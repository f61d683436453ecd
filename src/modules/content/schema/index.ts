/** The content engine's pure schema layer: definition validation, the change planner, the DDL. */
export * from './validate';
export * from './plan';
export * from './ddl';
export * from './groups';
