export * from './types';
export { parseListQuery, QUERY_PARAMETERS, type ParseOptions } from './parse';
export {
  compileFilter,
  compileListQuery,
  compileWhere,
  pgTimestamp,
  quoteIdent,
  type CompiledListQuery,
  type CompileListOptions,
  type CompiledSql,
  type CompileWhereOptions,
} from './compile';
