/** What the API document says of one route. */
export interface OperationText {
  /** Verb-like lowerCamelCase, unique across the document. */
  operationId: string;
  /** A short phrase in words. */
  summary: string;
  /** What it does, who may call it, notable answers and side effects. */
  description: string;
}

const SIGN_IN_BUDGET =
  'Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.';
const CSRF_NOTE =
  'A browser sends the CSRF token (`GET /admin/api/auth/csrf`) in the `X-CSRF-Token` header; a request with an `Authorization: Bearer` header needs none.';
const RECENT_SIGN_IN =
  'Needs the browser session with a recent sign-in: 403 REAUTH_REQUIRED after `auth.reauthWindowSeconds` (10 minutes by default); confirm with `POST /admin/api/auth/reauthenticate`.';
const SCHEMA_ADMIN = 'Needs `manage-settings`.';
const USERS_SUPER_ADMIN_RULE = "Only a super-admin may act on a super-admin's account (403 otherwise).";

/** What the API document says of each route: keyed `<ControllerClassName>.<handlerMethodName>`. */
export const OPERATIONS: Record<string, OperationText> = {
  // ---------------------------------------------------------------------------------------------
  // auth: sign-in and sessions
  'AuthController.setupStatus': {
    operationId: 'getSetupStatus',
    summary: 'Check whether setup is done',
    description:
      'Answers whether the first administrator exists (`completed`). Public: an admin app calls it to choose between the setup form and the sign-in form.',
  },
  'AuthController.setup': {
    operationId: 'completeSetup',
    summary: 'Create the first administrator',
    description: `Creates the first account, with the Super Admin role, and signs it in (session cookies set; the access token in the body). Public, and possible once: after that every call answers 403 SETUP_COMPLETE. When \`auth.mfa\` requires a second factor of this account, the answer is a challenge to set one up first. ${SIGN_IN_BUDGET}`,
  },
  'AuthController.csrfToken': {
    operationId: 'getCsrfToken',
    summary: 'Get a CSRF token',
    description:
      'Issues a CSRF token in the body and in the `svc_csrf` cookie. A browser using the session cookie sends it back in the `X-CSRF-Token` header on every POST, PATCH, PUT and DELETE; requests with an `Authorization: Bearer` header need none. Public.',
  },
  'AuthController.login': {
    operationId: 'login',
    summary: 'Sign in with email and password',
    description: `Checks the email and password and opens a session (session and refresh cookies set, the access token in the body for \`Authorization: Bearer\`), or answers \`status: "challenge"\` with a \`pendingToken\` when a second factor or a new password is needed (see \`/auth/challenge/resolve\` and \`/auth/set-initial-password\`). Every refusal is the same 401 AUTH_INVALID_CREDENTIALS (repeated wrong passwords lock the account for a while), except 403 EMAIL_NOT_VERIFIED for a right password on an unverified address when verification is required. ${CSRF_NOTE} ${SIGN_IN_BUDGET}`,
  },
  'AuthController.resolveChallenge': {
    operationId: 'resolveChallenge',
    summary: 'Answer a sign-in challenge',
    description: `Answers the second-factor step of a paused sign-in; the pending token comes from the body or the \`svc_pending\` cookie. A right answer signs in (or answers \`continues: true\` with the next step); a wrong one is 401 AUTH_INVALID_CREDENTIALS with a new \`pendingToken\` while attempts remain, and \`attemptsRemaining: 0\` once the sign-in must start again. Ten wrong codes in 15 minutes lock codes for the account (429). ${SIGN_IN_BUDGET}`,
  },
  'AuthController.ui': {
    operationId: 'getLoginUi',
    summary: 'Get the plugin parts of the login page',
    description:
      "The installed plugins' contributions to a login page: external sign-in buttons, the views of their challenges and extra slots. Public.",
  },
  'AuthController.setInitialPassword': {
    operationId: 'setInitialPassword',
    summary: 'Replace an administrator-set password and sign in',
    description: `Finishes a sign-in paused because an administrator set the password and asked for it to be replaced: the new password is saved, the account's other sessions end, a notice is emailed, and a session opens. The pending token comes from the body or the \`svc_pending\` cookie. ${SIGN_IN_BUDGET}`,
  },
  'AuthController.pending': {
    operationId: 'getPendingSignIn',
    summary: 'Get the outstanding step of a paused sign-in',
    description:
      'Reads the `svc_pending` cookie and answers the step a paused sign-in is waiting for (challenge type, hint, attempts left, expiry), never the token itself; 204 when no sign-in is pending. Public.',
  },
  'AuthController.refresh': {
    operationId: 'refreshSession',
    summary: 'Renew the session',
    description: `Exchanges the refresh cookie (\`svc_refresh\`) for a new access token and a new refresh cookie; the old refresh token stops working. 401 REFRESH_SUPERSEDED when a concurrent request refreshed first (retry once), 401 REFRESH_FAILED when the session cannot be renewed (sign in again). A rotated refresh token presented again ends its session. ${CSRF_NOTE}`,
  },
  'AuthController.logout': {
    operationId: 'logout',
    summary: 'Sign out',
    description: `Ends the caller's session (the one of the refresh cookie, else of the access token) and clears the session cookies; its refresh and access tokens stop working. Answers 200 even without a session. ${CSRF_NOTE}`,
  },
  'AuthController.session': {
    operationId: 'getSession',
    summary: 'Get the signed-in user of the browser session',
    description:
      'The user of the session cookie and when its access token expires (`exp`). Cookie session only: 401 AUTH_REQUIRED without a session.',
  },

  // auth: account routes
  'AccountController.register': {
    operationId: 'register',
    summary: 'Create an account',
    description: `Registers an account and emails a verification link. The answer is the same, after the same delay, whether or not the address is taken (unless \`auth.revealRegistrationConflict\` is on: then 409 DUPLICATE). Public. ${SIGN_IN_BUDGET}`,
  },
  'AccountController.verifyEmail': {
    operationId: 'verifyEmail',
    summary: 'Verify an email address',
    description: `Marks the address verified with the token of the emailed link. 422 INVALID_INPUT for an unknown, used or expired link. Public. ${SIGN_IN_BUDGET}`,
  },
  'AccountController.resendVerification': {
    operationId: 'resendVerificationEmail',
    summary: 'Send the verification link again',
    description: `Emails a new verification link when the address belongs to an active account that is not verified yet. The answer is the same for any address. Public. ${SIGN_IN_BUDGET}`,
  },
  'AccountController.forgotPassword': {
    operationId: 'requestPasswordReset',
    summary: 'Request a password reset link',
    description: `Emails a password reset link when the address belongs to an active account. The answer is the same, after the same delay, for any address. Public. ${SIGN_IN_BUDGET}`,
  },
  'AccountController.resetPassword': {
    operationId: 'resetPassword',
    summary: 'Set a new password with a reset link',
    description: `Sets the password with the token of the emailed reset link; the address counts as verified, every session of the account ends and a notice is emailed. 422 INVALID_INPUT for an unknown, used or expired link. Public. ${SIGN_IN_BUDGET}`,
  },
  'AccountController.acceptInvite': {
    operationId: 'acceptInvite',
    summary: 'Accept an invitation',
    description: `Chooses the password (and optionally the name) of an invited account with the token of the emailed invitation; the address counts as verified. 422 INVALID_INPUT for an unknown, used or expired link. Public; sign in afterwards. ${SIGN_IN_BUDGET}`,
  },
  'AccountController.changePassword': {
    operationId: 'changePassword',
    summary: 'Change your password',
    description:
      'Checks the current password (422 INVALID_INPUT when wrong) and sets the new one; every session of the account ends, this one included, the session cookies are cleared and a notice is emailed. Cookie session only.',
  },
  'AccountController.reauthenticate': {
    operationId: 'reauthenticate',
    summary: 'Confirm your identity again',
    description:
      'Proves the owner of this browser session again, with the password or a second-factor code (one of the two), before a sensitive change such as creating an API key or ending other sessions; answers until when such changes are allowed. A wrong answer is 422 INVALID_INPUT and counts toward the lockout (429 when locked). Cookie session only.',
  },

  // auth: the caller's sessions
  'SessionsController.list': {
    operationId: 'listSessions',
    summary: 'List your sessions',
    description:
      "The caller's live sessions, newest first; `current` marks the one making the request. Needs a signed-in person (session cookie or Bearer access token): an API key is 401.",
  },
  'SessionsController.endOthers': {
    operationId: 'endOtherSessions',
    summary: 'End your other sessions',
    description: `Ends every session of the caller except the current one, along with paused sign-ins and emailed sign-in links, and answers how many ended. ${RECENT_SIGN_IN}`,
  },
  'SessionsController.end': {
    operationId: 'endSession',
    summary: 'End one of your sessions',
    description:
      "Ends one of the caller's sessions; its tokens stop working. 404 for an ended session or another user's. An API key is 401.",
  },
  'UserSessionsController.list': {
    operationId: 'listUserSessions',
    summary: "List a user's sessions",
    description: "An administrator's view of a user's live sessions. Needs `read-users`.",
  },
  'UserSessionsController.endAll': {
    operationId: 'endUserSessions',
    summary: "End all of a user's sessions",
    description: `Signs the user out everywhere: every session ends and its tokens stop working; answers how many ended. Needs \`update-users\`. ${USERS_SUPER_ADMIN_RULE}`,
  },

  // ---------------------------------------------------------------------------------------------
  // me
  'MeController.me': {
    operationId: 'getCurrentUser',
    summary: 'Get your own user record',
    description: "The caller's own user record, custom user fields included. Any signed-in caller.",
  },
  'MeController.update': {
    operationId: 'updateCurrentUser',
    summary: 'Update your profile',
    description:
      "Changes the caller's own name, image and custom user fields (never the email, roles or status). A person's credential only: an API key is 401.",
  },
  'MeController.permissions': {
    operationId: 'getMyPermissions',
    summary: 'Get your permissions',
    description:
      'The permission slugs the caller holds through their roles (or the API key), and whether they are a super-admin (who passes every check).',
  },

  // ---------------------------------------------------------------------------------------------
  // users
  'UsersController.list': {
    operationId: 'listUsers',
    summary: 'List users',
    description:
      'One page of users, with search, sort (`email`, `name`, `createdAt`, `lastLoginAt`) and paging. Needs `read-users`.',
  },
  'UsersController.create': {
    operationId: 'createUser',
    summary: 'Create a user',
    description:
      'Creates an account with the given roles and custom user fields. Without a password, `sendInvite: true` emails an invitation link to choose one; `requirePasswordChange` makes the first sign-in replace the password. 409 DUPLICATE for a taken address; only a super-admin may grant Super Admin (403). Needs `create-users`.',
  },
  'UsersController.get': {
    operationId: 'getUser',
    summary: 'Get a user',
    description: 'One user record, custom user fields included. Needs `read-users`.',
  },
  'UsersController.update': {
    operationId: 'updateUser',
    summary: 'Update a user',
    description: `Changes the email, name, image, status, verification or custom user fields of a user; deactivating an account stops its sessions. 409 DUPLICATE for a taken address. Needs \`update-users\`. ${USERS_SUPER_ADMIN_RULE}`,
  },
  'UsersController.remove': {
    operationId: 'deleteUser',
    summary: 'Delete a user',
    description: `Deletes the account with its sessions, emailed links and API keys; answers the deleted record. 409 CONFLICT for the last active super-admin. Needs \`delete-users\`. ${USERS_SUPER_ADMIN_RULE}`,
  },
  'UsersController.setPassword': {
    operationId: 'setUserPassword',
    summary: "Set a user's password",
    description: `Sets a new password for the user; every session of the user ends and a notice is emailed. With \`requirePasswordChange\`, the next sign-in asks for a new password before a session. Needs \`update-users\`. ${USERS_SUPER_ADMIN_RULE}`,
  },
  'UsersController.roles': {
    operationId: 'listUserRoles',
    summary: "List a user's roles",
    description: 'The roles assigned to the user. Needs `read-roles`.',
  },
  'UsersController.addRole': {
    operationId: 'addUserRole',
    summary: 'Assign a role to a user',
    description: `Assigns one role; answers the updated user. Only a super-admin may grant Super Admin or a role built on it (403). Needs \`update-users\`. ${USERS_SUPER_ADMIN_RULE}`,
  },
  'UsersController.removeRole': {
    operationId: 'removeUserRole',
    summary: 'Remove a role from a user',
    description: `Takes one role away; answers the updated user. 404 when the user does not hold it; 409 CONFLICT when it would leave no active super-admin. Needs \`update-users\`. ${USERS_SUPER_ADMIN_RULE}`,
  },

  // ---------------------------------------------------------------------------------------------
  // roles and permissions
  'RolesController.list': {
    operationId: 'listRoles',
    summary: 'List roles',
    description: 'One page of roles, with search, sort and paging. Needs `read-roles`.',
  },
  'RolesController.create': {
    operationId: 'createRole',
    summary: 'Create a role',
    description: 'Creates a role. 409 DUPLICATE for a taken slug. Needs `create-roles`.',
  },
  'RolesController.get': {
    operationId: 'getRole',
    summary: 'Get a role',
    description: 'One role. Needs `read-roles`.',
  },
  'RolesController.update': {
    operationId: 'updateRole',
    summary: 'Update a role',
    description:
      'Changes the name, slug, level or description of a role. The system role Super Admin keeps its name and slug (409); only a super-admin may change a role built on Super Admin (403). Needs `update-roles`.',
  },
  'RolesController.remove': {
    operationId: 'deleteRole',
    summary: 'Delete a role',
    description:
      'Deletes a role with its permission rows, inheritance links and user assignments; roles inheriting from it lose what it granted. 409 CONFLICT for Super Admin. Needs `delete-roles`.',
  },
  'RolesController.listPermissions': {
    operationId: 'listRolePermissions',
    summary: "List a role's permissions",
    description: 'The permissions granted by the role itself. Needs `read-roles` or `read-permissions`.',
  },
  'RolesController.addPermissions': {
    operationId: 'addRolePermissions',
    summary: 'Add permissions to a role',
    description:
      "Grants more permissions through the role; answers the updated role. Super Admin's permissions cannot be edited (409). Needs `update-roles`.",
  },
  'RolesController.replacePermissions': {
    operationId: 'replaceRolePermissions',
    summary: "Replace a role's permissions",
    description:
      "Sets the role's permissions to exactly the given list; answers the updated role. Super Admin's permissions cannot be edited (409). Needs `update-roles`.",
  },
  'RolesController.removePermission': {
    operationId: 'removeRolePermission',
    summary: 'Remove a permission from a role',
    description: 'Takes one permission away from the role; answers the updated role. Needs `update-roles`.',
  },
  'RolesController.listChildren': {
    operationId: 'listChildRoles',
    summary: 'List the roles that inherit from a role',
    description: "The role's children: roles that inherit every permission of this one. Needs `read-roles`.",
  },
  'RolesController.addChild': {
    operationId: 'addChildRole',
    summary: 'Make a role inherit from this one',
    description:
      'Makes the given role a child of this one: it then holds every permission of this role too; answers the updated role. 409 CONFLICT for a link to itself, for Super Admin as the child, or for a cycle; only a super-admin may build a role on Super Admin (403). Needs `update-roles`.',
  },
  'RolesController.removeChild': {
    operationId: 'removeChildRole',
    summary: 'Stop a role inheriting from this one',
    description:
      'Removes the link to a child role, which loses what it inherited through it; answers the updated role. Needs `update-roles`.',
  },
  'RolesController.listParents': {
    operationId: 'listParentRoles',
    summary: 'List the roles a role inherits from',
    description: "The role's parents: the roles whose permissions it inherits. Needs `read-roles`.",
  },
  'PermissionsController.list': {
    operationId: 'listPermissions',
    summary: 'List permissions',
    description:
      'One page of permissions, with search, sort and paging. Needs `read-permissions` or `read-roles`.',
  },
  'PermissionsController.create': {
    operationId: 'createPermission',
    summary: 'Create a permission',
    description:
      'Creates a permission an application can check and roles can grant. 409 DUPLICATE for a taken slug. Needs `create-permissions`.',
  },
  'PermissionsController.get': {
    operationId: 'getPermission',
    summary: 'Get a permission',
    description: 'One permission. Needs `read-permissions` or `read-roles`.',
  },
  'PermissionsController.update': {
    operationId: 'updatePermission',
    summary: 'Rename a permission',
    description:
      "Changes a permission's name or description; its slug, which is what routes check, stays. Needs `update-permissions`.",
  },
  'PermissionsController.remove': {
    operationId: 'deletePermission',
    summary: 'Delete a permission',
    description:
      "Deletes a permission and every role's grant of it. The permissions the service's routes check and those of a collection or single cannot be deleted (409). Needs `delete-permissions`.",
  },

  // ---------------------------------------------------------------------------------------------
  // api-keys
  'ApiKeysController.list': {
    operationId: 'listApiKeys',
    summary: 'List your API keys',
    description:
      "One page of the caller's own API keys (never the key values), with sort and paging. Browser session only: a Bearer credential is refused.",
  },
  'ApiKeysController.create': {
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: `Creates a key acting for the caller: \`read-only\`, \`full-access\` or \`role-based\` (with \`roleId\`), optionally narrowed to \`scopes\` and given an expiry. The key is in \`key\`, shown this once (answered with \`Cache-Control: no-store\`). ${RECENT_SIGN_IN}`,
  },
  'ApiKeysController.get': {
    operationId: 'getApiKey',
    summary: 'Get an API key',
    description: "One of the caller's keys (its prefix, never its value). Browser session only.",
  },
  'ApiKeysController.update': {
    operationId: 'updateApiKey',
    summary: 'Rename an API key',
    description:
      "Changes a key's name or description; nothing else of a key can change. Browser session only.",
  },
  'ApiKeysController.revoke': {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'Revokes a key: refused at once by this instance and within 5 seconds by the others. Browser session only.',
  },
  'ApiKeysController.rotate': {
    operationId: 'rotateApiKey',
    summary: 'Rotate an API key',
    description: `Gives the key a new value, in \`key\`, shown this once; the old value keeps working for \`graceSeconds\` (0 to 86400, default 0). 409 CONFLICT for a revoked or expired key. ${RECENT_SIGN_IN}`,
  },

  // ---------------------------------------------------------------------------------------------
  // audit
  'AuditController.list': {
    operationId: 'listAuditLog',
    summary: 'List audit log entries',
    description:
      'One page of the audit log, newest first (`sort=createdAt` for oldest first), filtered by `event` (names, comma-separated), `actorId`, `from` and `to` (inclusive ISO 8601 times). Needs `read-audit`.',
  },
  'AuditController.export': {
    operationId: 'exportAuditLog',
    summary: 'Export the audit log as CSV',
    description:
      'Every entry under the same filters as the list, newest first, as a streamed CSV download: a header row, then one row per entry with `metadata` as JSON. Needs `read-audit`.',
  },

  // ---------------------------------------------------------------------------------------------
  // collections, entries, singles, field groups, schema journal
  'CollectionsController.list': {
    operationId: 'listCollections',
    summary: 'List collections',
    description: 'The collection definitions, with search, sort and paging. Any signed-in caller.',
  },
  'CollectionsController.create': {
    operationId: 'createCollection',
    summary: 'Create a collection',
    description: `Creates a collection, its table and its permissions (\`read-<slug>\`, \`create-<slug>\`...); \`access\` may open reading or creating entries to anyone, \`versions\` keeps entry versions. 409 CONFLICT when the slug or its permissions are taken. ${SCHEMA_ADMIN}`,
  },
  'CollectionsController.enriched': {
    operationId: 'getCollectionSchema',
    summary: "Get a collection's full schema",
    description:
      "The collection's definition with every component field carrying its field group's fields, for building forms. Under the collection's read access.",
  },
  'CollectionsController.preview': {
    operationId: 'previewCollectionSchema',
    summary: 'Preview a schema change of a collection',
    description: `The changes applying these fields would make, and whether any may delete stored values; nothing is changed. ${SCHEMA_ADMIN}`,
  },
  'CollectionsController.apply': {
    operationId: 'applyCollectionSchema',
    summary: 'Apply a schema change to a collection',
    description: `Changes the collection's fields (and drafts) and its table in one step, and records it in the schema journal. Changes that may delete stored values need \`confirmDestructive: true\` (409 otherwise); a collection defined in the configuration file or built into the service is 409. ${SCHEMA_ADMIN}`,
  },
  'CollectionsController.get': {
    operationId: 'getCollection',
    summary: 'Get a collection',
    description: "One collection definition. Under the collection's read access.",
  },
  'CollectionsController.update': {
    operationId: 'updateCollection',
    summary: 'Update a collection',
    description: `Changes a collection's labels, drafts, fields, access or versions; a fields or drafts change is applied as by the schema apply route (access and versions change no table). ${SCHEMA_ADMIN}`,
  },
  'CollectionsController.remove': {
    operationId: 'deleteCollection',
    summary: 'Delete a collection',
    description: `Deletes the collection with its table, every entry and its permissions. 409 CONFLICT while another definition refers to it, or for a collection not made over the API. ${SCHEMA_ADMIN}`,
  },
  'EntriesController.list': {
    operationId: 'listEntries',
    summary: 'List entries of a collection',
    description:
      "One page of entries with `where` filters, `sort`, `select`, `depth` (relationships expanded), `richTextFormat` and, on collections with drafts, `status`. Under the collection's read access; drafts need `read-<slug>`.",
  },
  'EntriesController.create': {
    operationId: 'createEntry',
    summary: 'Create an entry',
    description:
      "Creates an entry from a JSON body (the media collection takes a `multipart/form-data` upload: the file and its text fields). 400 VALIDATION_ERROR lists every problem; 409 DUPLICATE for a repeated unique value. Under the collection's create access.",
  },
  'EntriesController.updateWhere': {
    operationId: 'updateEntriesWhere',
    summary: 'Update every entry a filter matches',
    description:
      "Applies `data` to every entry `where` matches, in one transaction, and reports what was updated and what was refused. Needs the collection's update and read access; drafts are matched only for a caller who may read them.",
  },
  'EntriesController.count': {
    operationId: 'countEntries',
    summary: 'Count entries of a collection',
    description:
      "The number of entries matching `where` (and `status` on collections with drafts). Under the collection's read access.",
  },
  'EntriesController.bulkDelete': {
    operationId: 'bulkDeleteEntries',
    summary: 'Delete entries by id',
    description:
      "Deletes the listed entries and reports which were deleted and which ids were not found. Under the collection's delete access.",
  },
  'EntriesController.bulkUpdate': {
    operationId: 'bulkUpdateEntries',
    summary: 'Update entries by id',
    description:
      "Applies `data` to each listed entry; an entry the change would make invalid is left unchanged and reported in `errors`. Under the collection's update access.",
  },
  'EntriesController.get': {
    operationId: 'getEntry',
    summary: 'Get an entry',
    description:
      "One entry, with `select`, `depth`, `richTextFormat` and, on collections with drafts, `status` (published by default; drafts need `read-<slug>`). Answers the entry's `ETag` (304 for an `If-None-Match` naming it). Under the collection's read access. A preview token (`X-Preview-Token` or `preview`) naming the entry stands in for credentials: its newest state, draft included, with related entries as a visitor sees them; any other token is 401.",
  },
  'EntriesController.update': {
    operationId: 'updateEntry',
    summary: 'Update an entry',
    description:
      "Changes the fields sent; the others keep their values (409 DUPLICATE for a repeated unique value). With `If-Match` naming the entry's `ETag`, a change made since is a 412 PRECONDITION_FAILED. On collections with drafts, publishing, unpublishing or changing a published entry also needs `publish-<slug>`. Under the collection's update access.",
  },
  'EntriesController.remove': {
    operationId: 'deleteEntry',
    summary: 'Delete an entry',
    description:
      "Deletes an entry (for media, its stored files too) and its versions; references to it are cleared. `If-Match` makes it conditional (412 when the entry changed since). Under the collection's delete access.",
  },
  'EntriesController.duplicate': {
    operationId: 'duplicateEntry',
    summary: 'Duplicate an entry',
    description:
      "Copies an entry (as a draft on collections with drafts). 409 DUPLICATE when a unique value would repeat. Needs the collection's create and read access.",
  },
  'EntryVersionsController.list': {
    operationId: 'listEntryVersions',
    summary: "List an entry's versions",
    description:
      "The versions of an entry, newest first (`page`, `limit`), on collections with versions on: one at every write that changed it, the oldest beyond the collection's maximum removed. Needs `read-<slug>` (a version may hold a draft).",
  },
  'EntryVersionsController.get': {
    operationId: 'getEntryVersion',
    summary: 'Get a version of an entry',
    description:
      'One version with every field; with `compare` (another version id, or `current`), also `changes`: the fields that differ, `from` this version and `to` the compared one. Needs `read-<slug>`.',
  },
  'EntryVersionsController.restore': {
    operationId: 'restoreEntryVersion',
    summary: 'Restore a version of an entry',
    description:
      "The entry takes the version's field data and keeps its status; `publish: true` also publishes a draft. Writes a `restore` version. Needs `update-<slug>`, and `publish-<slug>` when the entry is published or `publish` is asked.",
  },
  'SingleVersionsController.list': {
    operationId: 'listSingleVersions',
    summary: "List a single's versions",
    description:
      'The versions of a single with versions on, newest first (`page`, `limit`). Needs `read-<slug>`.',
  },
  'SingleVersionsController.get': {
    operationId: 'getSingleVersion',
    summary: 'Get a version of a single',
    description:
      'One version; with `compare` (another version id, or `current`), also the fields that differ. Needs `read-<slug>`.',
  },
  'SingleVersionsController.restore': {
    operationId: 'restoreSingleVersion',
    summary: 'Restore a version of a single',
    description:
      "The single takes the version's field data and keeps its status; `publish: true` also publishes a draft. Needs `update-<slug>`, and `publish-<slug>` when it is published or `publish` is asked.",
  },
  'EntrySchedulesController.create': {
    operationId: 'scheduleEntryChange',
    summary: 'Schedule publishing or unpublishing an entry',
    description:
      "Plans `publish` or `unpublish` of the entry at `at` (in the future, within a year). It runs within seconds of that time, once, with its creator's rights then; it ends `done`, or `failed` with `error` (creator deactivated or without the right, required fields missing, entry deleted). Needs `publish-<slug>`; 409 on a collection without drafts.",
  },
  'EntrySchedulesController.list': {
    operationId: 'listEntrySchedules',
    summary: "List an entry's schedules",
    description:
      'Every schedule of the entry (`pending`, `done`, `failed`, `cancelled`), latest time first (`page`, `limit`). Needs `read-<slug>`.',
  },
  'EntrySchedulesController.cancel': {
    operationId: 'cancelEntrySchedule',
    summary: 'Cancel a schedule of an entry',
    description: 'A pending schedule becomes `cancelled`; any other is a 409. Needs `publish-<slug>`.',
  },
  'SingleSchedulesController.create': {
    operationId: 'scheduleSingleChange',
    summary: 'Schedule publishing or unpublishing a single',
    description:
      "Plans `publish` or `unpublish` of the single at `at` (in the future, within a year), run once with its creator's rights then. Needs `publish-<slug>`.",
  },
  'SingleSchedulesController.list': {
    operationId: 'listSingleSchedules',
    summary: "List a single's schedules",
    description: 'Every schedule of the single, latest time first (`page`, `limit`). Needs `read-<slug>`.',
  },
  'SingleSchedulesController.cancel': {
    operationId: 'cancelSingleSchedule',
    summary: 'Cancel a schedule of a single',
    description: 'A pending schedule becomes `cancelled`; any other is a 409. Needs `publish-<slug>`.',
  },
  'SinglesController.list': {
    operationId: 'listSingles',
    summary: 'List singles',
    description: 'The single definitions, with search, sort and paging. Any signed-in caller.',
  },
  'SinglesController.create': {
    operationId: 'createSingle',
    summary: 'Create a single',
    description: `Creates a single (one record of content, such as a site's footer), its table and its permissions; \`access\` may open reading it to anyone, \`versions\` keeps its versions. 409 CONFLICT when the slug or its permissions are taken. ${SCHEMA_ADMIN}`,
  },
  'SinglesController.preview': {
    operationId: 'previewSingleSchema',
    summary: 'Preview a schema change of a single',
    description: `The changes applying these fields would make, and whether any may delete stored values; nothing is changed. ${SCHEMA_ADMIN}`,
  },
  'SinglesController.apply': {
    operationId: 'applySingleSchema',
    summary: 'Apply a schema change to a single',
    description: `Changes the single's fields (and drafts) and its table in one step, and records it in the schema journal. Changes that may delete stored values need \`confirmDestructive: true\` (409 otherwise). ${SCHEMA_ADMIN}`,
  },
  'SinglesController.schemaOf': {
    operationId: 'getSingleSchema',
    summary: "Get a single's full schema",
    description:
      "The single's definition with every component field carrying its field group's fields. Under the single's read access.",
  },
  'SinglesController.updateSchema': {
    operationId: 'updateSingleDefinition',
    summary: "Update a single's definition",
    description: `Changes a single's label, drafts, fields, access or versions; a fields or drafts change is applied as by the schema apply route (access and versions change no table). ${SCHEMA_ADMIN}`,
  },
  'SinglesController.get': {
    operationId: 'getSingleContent',
    summary: "Get a single's content",
    description:
      "The single's one record, with `select`, `depth`, `richTextFormat` and, on singles with drafts, `status` (published by default; drafts need `read-<slug>`). 404 before its first save, or when it holds no version of the status asked for. Under the single's read access. A preview token (`X-Preview-Token` or `preview`) for the single stands in for credentials and reads its newest state, draft included; any other token is 401.",
  },
  'SinglesController.update': {
    operationId: 'updateSingleContent',
    summary: "Update a single's content",
    description:
      "Saves the fields sent; the first save creates the record (as a draft on singles with drafts). `If-Match` with the `ETag` makes it conditional (412 when it changed since). On singles with drafts, publishing, unpublishing or changing the published content also needs `publish-<slug>`. Under the single's update access.",
  },
  'SinglesController.remove': {
    operationId: 'deleteSingle',
    summary: 'Delete a single',
    description: `Deletes the single with its content and permissions. 409 CONFLICT while another definition refers to it, or for a single not made over the API. ${SCHEMA_ADMIN}`,
  },
  'PreviewController.collectionToken': {
    operationId: 'createEntryPreviewToken',
    summary: 'Get a preview token for an entry',
    description:
      "A token that reads this entry's newest state, draft included, with no other credentials, for `expiresInSeconds` (1 to 604800, default 3600); `url` is the collection's preview page with the token in it, when it has one. Needs `read-<slug>` (a signed-in user; API keys cannot get one). The token stops working when it expires, or when its issuer is deactivated, has a password change or loses `read-<slug>`.",
  },
  'PreviewController.singleToken': {
    operationId: 'createSinglePreviewToken',
    summary: 'Get a preview token for a single',
    description:
      "A token that reads the single's newest state, draft included, with no other credentials, for `expiresInSeconds` (1 to 604800, default 3600); `url` is the single's preview page with the token in it, when it has one. Needs `read-<slug>` (a signed-in user; API keys cannot get one). The token stops working when it expires, or when its issuer is deactivated, has a password change or loses `read-<slug>`.",
  },
  'FieldGroupsController.list': {
    operationId: 'listFieldGroups',
    summary: 'List field groups',
    description:
      'The field groups (reusable sets of fields for component fields), with search, sort and paging. Any signed-in caller.',
  },
  'FieldGroupsController.create': {
    operationId: 'createFieldGroup',
    summary: 'Create a field group',
    description: `Creates a reusable set of fields that component fields of collections and singles embed. 409 CONFLICT for a taken slug. ${SCHEMA_ADMIN}`,
  },
  'FieldGroupsController.preview': {
    operationId: 'previewFieldGroupSchema',
    summary: 'Preview a schema change of a field group',
    description: `The changes applying these fields would make, and whether any may delete stored values; nothing is changed. ${SCHEMA_ADMIN}`,
  },
  'FieldGroupsController.apply': {
    operationId: 'applyFieldGroupSchema',
    summary: 'Apply a schema change to a field group',
    description: `Changes the field group's fields in one step and records it in the schema journal. Changes that may delete stored values need \`confirmDestructive: true\` (409 otherwise). ${SCHEMA_ADMIN}`,
  },
  'FieldGroupsController.get': {
    operationId: 'getFieldGroup',
    summary: 'Get a field group',
    description: 'One field group definition. Any signed-in caller.',
  },
  'FieldGroupsController.update': {
    operationId: 'updateFieldGroup',
    summary: 'Update a field group',
    description: `Changes a field group's label or fields; a fields change is applied as by the schema apply route. ${SCHEMA_ADMIN}`,
  },
  'FieldGroupsController.remove': {
    operationId: 'deleteFieldGroup',
    summary: 'Delete a field group',
    description: `Deletes a field group. 409 CONFLICT while a component field still embeds it, or for a field group not made over the API. ${SCHEMA_ADMIN}`,
  },
  'JournalController.journal': {
    operationId: 'listSchemaChanges',
    summary: 'List applied schema changes',
    description:
      'Every schema change applied to collections, singles and field groups, newest first, with who applied it. Super-admins only, with the browser session.',
  },

  // ---------------------------------------------------------------------------------------------
  // media and image sizes
  'MediaController.original': {
    operationId: 'downloadMediaFile',
    summary: 'Download a media file',
    description:
      "The stored file in its stored type, whole or a byte range (`Range`), with 304 to a matching conditional request and 416 for a range past the end. Under the media collection's read access (visitors too when media is public).",
  },
  'MediaController.size': {
    operationId: 'downloadMediaFileSize',
    summary: 'Download a resized image',
    description:
      "One image size of a stored image, answered like the original file (ranges, conditional requests). Under the media collection's read access.",
  },
  'ImageSizesController.list': {
    operationId: 'listImageSizes',
    summary: 'List image sizes',
    description: 'The sizes uploaded images are resized to. Any signed-in caller.',
  },
  'ImageSizesController.create': {
    operationId: 'createImageSize',
    summary: 'Create an image size',
    description:
      'Adds a size that new uploads are made in (existing images get it by regenerating). 409 DUPLICATE for a taken name, 409 CONFLICT past the maximum number of sizes. Needs `manage-settings`.',
  },
  'ImageSizesController.status': {
    operationId: 'getImageRegenerationStatus',
    summary: 'Get the progress of an image regeneration',
    description: 'The latest regeneration run of image sizes and its progress. Any signed-in caller.',
  },
  'ImageSizesController.regenerate': {
    operationId: 'regenerateImageSizes',
    summary: 'Regenerate every image size',
    description:
      'Queues a background run that remakes every size of every stored image; answers 202 with the run. 409 CONFLICT while a run is queued or running. Needs `manage-settings`.',
  },
  'ImageSizesController.update': {
    operationId: 'updateImageSize',
    summary: 'Update an image size',
    description:
      'Changes the name, dimensions, fit, format or quality of a size (existing images get it by regenerating). 409 DUPLICATE for a taken name. Needs `manage-settings`.',
  },
  'ImageSizesController.remove': {
    operationId: 'deleteImageSize',
    summary: 'Delete an image size',
    description: 'Deletes a size; new uploads are no longer made in it. Needs `manage-settings`.',
  },

  // ---------------------------------------------------------------------------------------------
  // settings and user fields
  'SettingsController.get': {
    operationId: 'getGeneralSettings',
    summary: 'Get the general settings',
    description:
      "The site's name, description, URL, logo, time zone, date format and custom settings. Needs `manage-settings`.",
  },
  'SettingsController.update': {
    operationId: 'updateGeneralSettings',
    summary: 'Update the general settings',
    description:
      'Changes the keys sent; absent ones keep their value. Every problem of the body is reported in one 400 answer. Needs `manage-settings`.',
  },
  'UserFieldsController.list': {
    operationId: 'listUserFields',
    summary: 'List custom user fields',
    description: 'The custom fields user records carry, in their display order. Needs `read-settings`.',
  },
  'UserFieldsController.create': {
    operationId: 'createUserField',
    summary: 'Create a custom user field',
    description:
      'Adds a custom field to every user record (`text`, `textarea`, `email`, `number`, `checkbox`, `date`, `select` or `json`). 409 DUPLICATE for a taken name. Needs `create-settings`.',
  },
  'UserFieldsController.reorder': {
    operationId: 'reorderUserFields',
    summary: 'Reorder custom user fields',
    description:
      'Sets the display order: every field id exactly once, in the new order; answers the reordered list. Needs `update-settings`.',
  },
  'UserFieldsController.get': {
    operationId: 'getUserField',
    summary: 'Get a custom user field',
    description: 'One custom user field. Needs `read-settings`.',
  },
  'UserFieldsController.update': {
    operationId: 'updateUserField',
    summary: 'Update a custom user field',
    description:
      "Changes a field's label, whether it is required, or its options; its name and type stay. A field defined in the configuration file is 409. Needs `update-settings`.",
  },
  'UserFieldsController.remove': {
    operationId: 'deleteUserField',
    summary: 'Delete a custom user field',
    description:
      'Removes the field from user records. A field defined in the configuration file is 409. Needs `delete-settings`.',
  },

  // ---------------------------------------------------------------------------------------------
  // email
  'EmailController.send': {
    operationId: 'sendEmail',
    summary: 'Send an email',
    description:
      'Sends an email through the default email provider, wrapped in the email layout. Without a provider it is written to the server log in development, and 503 SERVICE_UNAVAILABLE in production; 503 too when the SMTP server refuses it. Any signed-in caller.',
  },
  'EmailController.sendWithTemplate': {
    operationId: 'sendTemplateEmail',
    summary: 'Send an email from a template',
    description:
      'Renders the template (by slug) with the variables and sends it through the default email provider. 404 for an unknown template; 503 as for a plain email. Any signed-in caller.',
  },
  'EmailProvidersController.list': {
    operationId: 'listEmailProviders',
    summary: 'List email providers',
    description:
      'The SMTP providers email is sent through (never their passwords). Needs `read-email-providers`.',
  },
  'EmailProvidersController.create': {
    operationId: 'createEmailProvider',
    summary: 'Create an email provider',
    description:
      'Adds an SMTP provider; the password is stored encrypted and never answered. It becomes the default with `isDefault: true`, or when there is no default yet. Needs `create-email-providers`.',
  },
  'EmailProvidersController.get': {
    operationId: 'getEmailProvider',
    summary: 'Get an email provider',
    description: 'One SMTP provider (never its password). Needs `read-email-providers`.',
  },
  'EmailProvidersController.update': {
    operationId: 'updateEmailProvider',
    summary: 'Update an email provider',
    description:
      "Changes a provider's name, sender or SMTP settings; absent settings keep their value. Needs `update-email-providers`.",
  },
  'EmailProvidersController.remove': {
    operationId: 'deleteEmailProvider',
    summary: 'Delete an email provider',
    description: 'Deletes an SMTP provider. Needs `delete-email-providers`.',
  },
  'EmailProvidersController.setDefault': {
    operationId: 'setDefaultEmailProvider',
    summary: 'Make an email provider the default',
    description: 'Email is sent through this provider from now on. Needs `update-email-providers`.',
  },
  'EmailProvidersController.test': {
    operationId: 'sendTestEmail',
    summary: 'Send a test email through a provider',
    description:
      'Sends a short test email to the given address through this provider, default or not. 503 SERVICE_UNAVAILABLE with the reason when the SMTP server cannot be used. Needs `read-email-providers`.',
  },
  'EmailTemplatesController.layout': {
    operationId: 'getEmailLayout',
    summary: 'Get the email layout',
    description: 'The header and footer every email is wrapped in. Needs `read-email-templates`.',
  },
  'EmailTemplatesController.updateLayout': {
    operationId: 'updateEmailLayout',
    summary: 'Update the email layout',
    description: 'Changes the header or footer every email is wrapped in. Needs `update-email-templates`.',
  },
  'EmailTemplatesController.list': {
    operationId: 'listEmailTemplates',
    summary: 'List email templates',
    description:
      'The email templates, the built-in ones (verification, reset, invitation...) included. Needs `read-email-templates`.',
  },
  'EmailTemplatesController.create': {
    operationId: 'createEmailTemplate',
    summary: 'Create an email template',
    description:
      'Adds a template with `{{variable}}` placeholders in its subject and bodies. 409 DUPLICATE for a taken slug. Needs `create-email-templates`.',
  },
  'EmailTemplatesController.get': {
    operationId: 'getEmailTemplate',
    summary: 'Get an email template',
    description: 'One email template. Needs `read-email-templates`.',
  },
  'EmailTemplatesController.update': {
    operationId: 'updateEmailTemplate',
    summary: 'Update an email template',
    description:
      'Changes the fields sent. A built-in template keeps its slug (409). Needs `update-email-templates`.',
  },
  'EmailTemplatesController.remove': {
    operationId: 'deleteEmailTemplate',
    summary: 'Delete an email template',
    description:
      'Deletes a template; the built-in ones cannot be deleted (409). Needs `delete-email-templates`.',
  },
  'EmailTemplatesController.preview': {
    operationId: 'previewEmailTemplate',
    summary: 'Preview an email template',
    description:
      'Renders the template with the given variables, in the layout, without sending anything. Needs `read-email-templates`.',
  },

  // ---------------------------------------------------------------------------------------------
  // webhooks
  'WebhooksController.list': {
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints',
    description:
      'The endpoints events are sent to, with their subscriptions and state (never their secrets). Needs `read-webhooks`.',
  },
  'WebhooksController.create': {
    operationId: 'createWebhook',
    summary: 'Create a webhook endpoint',
    description:
      'Adds an endpoint that receives a signed `POST` for each event it subscribes to (`*`: all). The signing secret is answered here and by a rotation only, and stored encrypted. The URL must be `http` or `https`; an address in a private, loopback or link-local range is 400 VALIDATION_ERROR unless `webhooks.allowPrivateNetworks` is on. Needs `create-webhooks`.',
  },
  'WebhooksController.get': {
    operationId: 'getWebhook',
    summary: 'Get a webhook endpoint',
    description: 'One endpoint (never its secret). Needs `read-webhooks`.',
  },
  'WebhooksController.update': {
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint',
    description:
      'Changes any field of the create; absent fields keep their value. Enabling a disabled endpoint clears its `failureCount` and `disabledReason`; events that happened while it was disabled are not sent. Needs `update-webhooks`.',
  },
  'WebhooksController.remove': {
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description:
      'Deletes the endpoint with its deliveries: pending ones are never attempted. Needs `delete-webhooks`.',
  },
  'WebhooksController.rotateSecret': {
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret of a webhook endpoint',
    description:
      'Answers a new signing secret, shown this once; every later attempt, retries of earlier deliveries included, is signed with it. Needs `update-webhooks`.',
  },
  'WebhooksController.test': {
    operationId: 'sendWebhookTest',
    summary: 'Send a test event to a webhook endpoint',
    description:
      'Queues a `webhook.test` event (`data: { webhookId }`) to this endpoint only, whatever it subscribes to, and answers 202 with its `webhook-id`; the delivery log shows how it went. Needs `update-webhooks`.',
  },
  'WebhooksController.listDeliveries': {
    operationId: 'listWebhookDeliveries',
    summary: 'List the deliveries of a webhook endpoint',
    description:
      'The deliveries to this endpoint, newest first, filtered by `status` and `event`; kept for 30 days. Needs `read-webhooks`.',
  },
  'WebhooksController.getDelivery': {
    operationId: 'getWebhookDelivery',
    summary: 'Get a webhook delivery with its attempts',
    description:
      'One delivery with the log of its attempts (time, answer status, error, duration and the first 2 KiB of the answer) and the body every attempt sends. Needs `read-webhooks`.',
  },
  'WebhooksController.replay': {
    operationId: 'resendWebhookDelivery',
    summary: 'Replay a webhook delivery',
    description:
      'Queues a new delivery of the same event, with the same `webhook-id`, attempted at once; answers 202 with its id. Needs `update-webhooks`.',
  },

  // ---------------------------------------------------------------------------------------------
  // dashboard
  'DashboardController.stats': {
    operationId: 'getDashboardStats',
    summary: 'Get dashboard figures',
    description:
      'Entry counts (published and drafts) of the collections the caller may read, the number and total size of media files and, with `read-users`, user counts. Browser session only.',
  },
  'DashboardController.recentEntries': {
    operationId: 'listRecentContent',
    summary: 'List recently changed entries',
    description:
      'The latest changed entries across the collections the caller may read (drafts only where the caller may read them). Browser session only.',
  },
  'DashboardController.activity': {
    operationId: 'listActivity',
    summary: 'List recent activity',
    description:
      "Recent audit events: all of them for a super-admin, otherwise the caller's own and those about what the caller's permissions cover. Browser session only.",
  },

  // ---------------------------------------------------------------------------------------------
  // metrics
  'MetricsController.scrape': {
    operationId: 'getMetrics',
    summary: 'Read the Prometheus metrics',
    description:
      'The Prometheus text format (version 0.0.4): requests by route template and status, their durations, sign-ins, rate-limit refusals, the database pool, webhook deliveries, job queues, cache lookups, and Node process series. Only with `SVC_METRICS_TOKEN` set (404 otherwise), and only for `Authorization: Bearer <that token>`: any other credential is 401 AUTH_REQUIRED.',
  },

  // ---------------------------------------------------------------------------------------------
  // health
  'HealthController.get': {
    operationId: 'getHealth',
    summary: 'Check the service health',
    description:
      'The version, uptime and a database probe (and Redis, when configured, reported but not counted in `ok`). 503 SERVICE_UNAVAILABLE when the database probe fails. Public; a success may be cached for 60 seconds.',
  },

  // ---------------------------------------------------------------------------------------------
  // shipped plugins: form builder
  'FormBuilderController.list': {
    operationId: 'listForms',
    summary: 'List forms',
    description: 'One page of forms, with sort and paging. Needs `read-forms`.',
  },
  'FormBuilderController.create': {
    operationId: 'createForm',
    summary: 'Create a form',
    description:
      'Creates a form with its fields, status and optional notification address. 409 DUPLICATE for a taken slug. Needs `create-forms`.',
  },
  'FormBuilderController.read': {
    operationId: 'getForm',
    summary: 'Get a form',
    description:
      'One form: public for an open form (what a site renders, without the notification address); a closed form needs `read-forms`.',
  },
  'FormBuilderController.update': {
    operationId: 'updateForm',
    summary: 'Update a form',
    description: "Changes a form's definition (fields, status, notification address). Needs `update-forms`.",
  },
  'FormBuilderController.remove': {
    operationId: 'deleteForm',
    summary: 'Delete a form',
    description: 'Deletes a form with all its submissions. Needs `delete-forms`.',
  },
  'FormBuilderController.submit': {
    operationId: 'submitForm',
    summary: 'Submit a form',
    description:
      "Stores a submission checked against the form's fields and emails the notification address when there is one. Public; a budget per client address and form (429 when spent); 409 CONFLICT for a closed form.",
  },
  'FormBuilderController.submissions': {
    operationId: 'listFormSubmissions',
    summary: "List a form's submissions",
    description: 'One page of the submissions of a form. Needs `read-form-submissions`.',
  },
  'FormBuilderController.export': {
    operationId: 'exportFormSubmissions',
    summary: "Export a form's submissions as CSV",
    description:
      "Every submission of a form, oldest first, as a streamed CSV download: a header row of the form's field names, then one row per submission. Needs `read-form-submissions`.",
  },

  // shipped plugins: TOTP
  'TotpController.status': {
    operationId: 'getTotpStatus',
    summary: 'Get your authenticator app status',
    description:
      'Whether two-factor authentication with an authenticator app is on (or being set up) for the caller, and how many recovery codes are left. A signed-in person (an API key is 401).',
  },
  'TotpController.enroll': {
    operationId: 'startTotpEnrolment',
    summary: 'Start setting up an authenticator app',
    description:
      'Makes a new secret and answers it with its `otpauth://` URL and a QR code (SVG) to scan; confirm with a first code. Called with the browser session and a recent sign-in (403 REAUTH_REQUIRED otherwise), or during a sign-in that must set up a second factor (its pending token). 409 CONFLICT when it is on already.',
  },
  'TotpController.confirm': {
    operationId: 'confirmTotpEnrolment',
    summary: 'Confirm an authenticator app',
    description:
      'The first code from the app turns two-factor authentication on; the recovery codes are answered this once. During a sign-in waiting for a second factor, the sign-in goes on (a session, or the next step). 422 INVALID_INPUT for a wrong code; 409 CONFLICT without an enrolment to confirm.',
  },
  'TotpController.disable': {
    operationId: 'disableTotp',
    summary: 'Turn off the authenticator app',
    description:
      "Turns two-factor authentication off with a current code or an unused recovery code. Needs the browser session with a recent sign-in. 422 INVALID_INPUT for a wrong code (counted toward the account's code limit, 429 when reached); 409 CONFLICT when it is off.",
  },
  'TotpController.reset': {
    operationId: 'resetUserTotp',
    summary: "Clear a user's authenticator app",
    description: `Removes a user's authenticator app (a lost device): the user signs in with the password alone until setting one up again. Needs \`update-users\`. ${USERS_SUPER_ADMIN_RULE}`,
  },

  // shipped plugins: passkeys
  'PasskeyController.registerOptions': {
    operationId: 'startPasskeyRegistration',
    summary: 'Start registering a passkey',
    description:
      'WebAuthn creation options for the browser (`navigator.credentials.create`). Called with the browser session and a recent sign-in, or, when passkeys are a second factor, during a sign-in that must set one up (its pending token).',
  },
  'PasskeyController.registerVerify': {
    operationId: 'finishPasskeyRegistration',
    summary: 'Register a passkey',
    description:
      "Verifies the browser's answer to the creation options and stores the passkey. During a sign-in waiting for a second factor, the sign-in goes on (a session, or the next step).",
  },
  'PasskeyController.list': {
    operationId: 'listPasskeys',
    summary: 'List your passkeys',
    description: "One page of the caller's passkeys. A signed-in person (an API key is 401).",
  },
  'PasskeyController.remove': {
    operationId: 'deletePasskey',
    summary: 'Delete one of your passkeys',
    description:
      "Removes one of the caller's passkeys; 404 when it is not one of theirs. A signed-in person.",
  },
  'PasskeyController.challengeOptions': {
    operationId: 'startPasskeyChallenge',
    summary: 'Start the passkey step of a sign-in',
    description:
      'WebAuthn request options for a sign-in paused at the passkey challenge (the pending token in the body or the `svc_pending` cookie); answer it at `/auth/challenge/resolve`. 404 unless passkeys are a second factor; 401 for a spent step; 60 calls a minute per address.',
  },
  'PasskeyController.loginOptions': {
    operationId: 'startPasskeySignIn',
    summary: 'Start a passwordless passkey sign-in',
    description:
      'WebAuthn request options for signing in with a passkey alone. 404 unless passwordless sign-in is on; 60 calls a minute per address.',
  },
  'PasskeyController.loginVerify': {
    operationId: 'finishPasskeySignIn',
    summary: 'Sign in with a passkey',
    description:
      "Verifies the browser's passkey answer and signs in: a 302 to `next` with the session cookies set, or to the login page when the account may not sign in. A passkey that does not verify is 401 AUTH_INVALID_CREDENTIALS. 404 unless passwordless sign-in is on; 60 calls a minute per address.",
  },

  // shipped plugins: OpenID Connect (one controller subclass per installed instance)
  'OidcRoutes.start': {
    operationId: 'startOidcSignIn',
    summary: 'Start signing in with an identity provider',
    description:
      'Redirects (302) to the OpenID Connect provider, with a short-lived transaction cookie; `next` is the same-origin path to land on afterwards. A failure redirects to the login page with its error. Public.',
  },
  'OidcRoutes.callback': {
    operationId: 'finishOidcSignIn',
    summary: 'Finish signing in with an identity provider',
    description:
      "Where the provider sends the browser back: checks the state and the ID token, finds, links or creates the account, then redirects (302) to `next` signed in, to the login page to answer a second factor, or to the login page's error. Public.",
  },

  // shipped plugins: magic link
  'MagicLinkController.request': {
    operationId: 'requestMagicLink',
    summary: 'Email a sign-in link',
    description: `Emails a single-use sign-in link when the address belongs to an account that may sign in. The answer is the same, after the same delay, for any address. Public. ${SIGN_IN_BUDGET}`,
  },
  'MagicLinkController.verify': {
    operationId: 'signInWithMagicLink',
    summary: 'Sign in with an emailed link',
    description:
      "The emailed link: uses up the token and redirects (302) signed in to the `next` of the request, to the login page for a second factor, or to the login page's error for an unknown, used or expired link. A HEAD request answers 204 and leaves the link unused. Public.",
  },
};

/** The document's tags (the first path segment after /admin/api; `health` for /api/health). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Signing in and out, sessions, CSRF tokens, registration, email verification and passwords.',
  me: "The signed-in caller's own record, profile and permissions.",
  users: 'Administration of accounts: their records, roles, passwords and sessions.',
  roles: 'Roles, the permissions they grant and the roles they inherit from.',
  permissions: 'The permissions roles grant: the built-in ones and those an application defines.',
  'api-keys': "The caller's API keys, for server-to-server access; managed from a browser session.",
  audit: 'The audit log of security and administration events, to read and export.',
  collections: 'Collection definitions, their schema changes, and their entries.',
  singles: 'Singles: content types with exactly one record, their definitions and their content.',
  'field-groups': 'Reusable sets of fields that component fields of collections and singles embed.',
  schema: 'The journal of every schema change applied.',
  media: 'The stored media files and their resized images.',
  'image-sizes': 'The sizes uploaded images are resized to, and their regeneration.',
  'general-settings': "The site's general settings.",
  'user-fields': 'Custom fields that every user record carries.',
  email: 'Sending email, plain or from a template.',
  'email-providers': 'The SMTP providers email is sent through.',
  'email-templates': 'Email templates and the layout that wraps every email.',
  webhooks:
    'Endpoints that receive signed HTTP requests when content, media, users or schemas change, and their deliveries.',
  dashboard: 'Figures, recent entries and activity for an admin app, limited to what the caller may read.',
  forms: 'Forms a site renders and visitors submit, and their submissions (form builder plugin).',
  plugins:
    'Routes of the installed plugins: authenticator apps, passkeys, external identity providers and emailed sign-in links.',
  health: 'The liveness and readiness probe.',
  metrics: 'Prometheus metrics of the instance, for a scraper holding the metrics token.',
};

/**
 * The table's entry for a handler: keyed by the route's class, else by the class it inherits the
 * handler from (a plugin installed several times mounts a subclass per instance).
 */
export function operationOf(cls: unknown, name: string): OperationText | undefined {
  for (let c = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const found = OPERATIONS[`${(c as { name: string }).name}.${name}`];
    if (found) {
      return found;
    }
  }
  return undefined;
}
