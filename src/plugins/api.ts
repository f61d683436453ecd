/**
 * The plugin surface, as a plugin sees it: what the package root exports for plugins, and all
 * that the shipped plugins (`src/plugins/<slug>/`) may import from the service.
 */
export { definePlugin } from '../modules/plugins/define-plugin';
export type * from '../modules/plugins/plugin.types';
export { MFA_ENROL } from '../modules/plugins/plugin.types';
export { ServiceError } from '../common/errors/service-error';
export { pendingTokenOf } from '../common/pending-token';
export { RequirePermission, CookieOnly, CurrentAuth } from '../common/access/auth.decorators';
export type { AuthContext, SessionUser } from '../common/access/auth-context';
export { requireAuth } from '../modules/auth/in-process';
export { parseListQuery, listRecord, type ListQuery } from '../common/pagination';
// Formula-safe CSV cells and records (RFC 4180), for exports.
export { csvCell, csvRow } from '../common/csv';
export type { ValidationIssue } from '../common/errors/service-error';
// The service's rules for slugs, field names, labels and storable text, so a plugin's own
// definitions (forms, say) are checked, and their problems worded, as the service's are.
export {
  SLUG_PATTERN,
  SLUG_SHAPE,
  FIELD_NAME_PATTERN,
  FIELD_NAME_SHAPE,
  OBJECT_MEMBER_NAMES,
  checkNameRule,
  type NameRule,
} from '../fields/names';
export { checkLabel, humanizeName } from '../fields/labels';
export { isStorableString } from '../fields/strings';
// Plugins describe their answers with @nestjs/swagger decorators (`@ApiOkResponse({ schema })`...)
// and these helpers; named schemas take the plugin's prefix (`Passkeys_Credential`).
export {
  namedSchema,
  objectSchema,
  itemAnswer,
  listOf,
  schemaRef,
  MESSAGE_ANSWER,
  STRING,
  NULLABLE_STRING,
  BOOLEAN,
  INTEGER,
  DATE_TIME,
  NULLABLE_DATE_TIME,
  UUID,
  ANY,
  type JsonSchema,
} from '../common/api-schema';
