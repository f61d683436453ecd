/**
 * Types of the service's REST API, generated from its OpenAPI document by openapi-typescript
 * (`npm run typegen`). Do not edit: generate them again.
 */

export interface paths {
  '/admin/api/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List your API keys
     * @description One page of the caller's own API keys (never the key values), with sort and paging. Browser session only: a Bearer credential is refused.
     */
    get: operations['listApiKeys'];
    put?: never;
    /**
     * Create an API key
     * @description Creates a key acting for the caller: `read-only`, `full-access` or `role-based` (with `roleId`), optionally narrowed to `scopes` and given an expiry. The key is in `key`, shown this once (answered with `Cache-Control: no-store`). Needs the browser session with a recent sign-in: 403 REAUTH_REQUIRED after `auth.reauthWindowSeconds` (10 minutes by default); confirm with `POST /admin/api/auth/reauthenticate`.
     */
    post: operations['createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an API key
     * @description One of the caller's keys (its prefix, never its value). Browser session only.
     */
    get: operations['getApiKey'];
    put?: never;
    post?: never;
    /**
     * Revoke an API key
     * @description Revokes a key: refused at once by this instance and within 5 seconds by the others. Browser session only.
     */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    /**
     * Rename an API key
     * @description Changes a key's name or description; nothing else of a key can change. Browser session only.
     */
    patch: operations['updateApiKey'];
    trace?: never;
  };
  '/admin/api/api-keys/{id}/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate an API key
     * @description Gives the key a new value, in `key`, shown this once; the old value keeps working for `graceSeconds` (0 to 86400, default 0). 409 CONFLICT for a revoked or expired key. Needs the browser session with a recent sign-in: 403 REAUTH_REQUIRED after `auth.reauthWindowSeconds` (10 minutes by default); confirm with `POST /admin/api/auth/reauthenticate`.
     */
    post: operations['rotateApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List audit log entries
     * @description One page of the audit log, newest first (`sort=createdAt` for oldest first), filtered by `event` (names, comma-separated), `actorId`, `from` and `to` (inclusive ISO 8601 times). Needs `read-audit`.
     */
    get: operations['listAuditLog'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/audit/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export the audit log as CSV
     * @description Every entry under the same filters as the list, newest first, as a streamed CSV download: a header row, then one row per entry with `metadata` as JSON. Needs `read-audit`.
     */
    get: operations['exportAuditLog'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/accept-invite': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept an invitation
     * @description Chooses the password (and optionally the name) of an invited account with the token of the emailed invitation; the address counts as verified. 422 INVALID_INPUT for an unknown, used or expired link. Public; sign in afterwards. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['acceptInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/challenge/resolve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Answer a sign-in challenge
     * @description Answers the second-factor step of a paused sign-in; the pending token comes from the body or the `svc_pending` cookie. A right answer signs in (or answers `continues: true` with the next step); a wrong one is 401 AUTH_INVALID_CREDENTIALS with a new `pendingToken` while attempts remain, and `attemptsRemaining: 0` once the sign-in must start again. Ten wrong codes in 15 minutes lock codes for the account (429). Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['resolveChallenge'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/change-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change your password
     * @description Checks the current password (422 INVALID_INPUT when wrong) and sets the new one; every session of the account ends, this one included, the session cookies are cleared and a notice is emailed. Cookie session only.
     */
    patch: operations['changePassword'];
    trace?: never;
  };
  '/admin/api/auth/csrf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a CSRF token
     * @description Issues a CSRF token in the body and in the `svc_csrf` cookie. A browser using the session cookie sends it back in the `X-CSRF-Token` header on every POST, PATCH, PUT and DELETE; requests with an `Authorization: Bearer` header need none. Public.
     */
    get: operations['getCsrfToken'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/forgot-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Request a password reset link
     * @description Emails a password reset link when the address belongs to an active account. The answer is the same, after the same delay, for any address. Public. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['requestPasswordReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with email and password
     * @description Checks the email and password and opens a session (session and refresh cookies set, the access token in the body for `Authorization: Bearer`), or answers `status: "challenge"` with a `pendingToken` when a second factor or a new password is needed (see `/auth/challenge/resolve` and `/auth/set-initial-password`). Every refusal is the same 401 AUTH_INVALID_CREDENTIALS (repeated wrong passwords lock the account for a while), except 403 EMAIL_NOT_VERIFIED for a right password on an unverified address when verification is required. A browser sends the CSRF token (`GET /admin/api/auth/csrf`) in the `X-CSRF-Token` header; a request with an `Authorization: Bearer` header needs none. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out
     * @description Ends the caller's session (the one of the refresh cookie, else of the access token) and clears the session cookies; its refresh and access tokens stop working. Answers 200 even without a session. A browser sends the CSRF token (`GET /admin/api/auth/csrf`) in the `X-CSRF-Token` header; a request with an `Authorization: Bearer` header needs none.
     */
    post: operations['logout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/pending': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the outstanding step of a paused sign-in
     * @description Reads the `svc_pending` cookie and answers the step a paused sign-in is waiting for (challenge type, hint, attempts left, expiry), never the token itself; 204 when no sign-in is pending. Public.
     */
    get: operations['getPendingSignIn'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/reauthenticate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm your identity again
     * @description Proves the owner of this browser session again, with the password or a second-factor code (one of the two), before a sensitive change such as creating an API key or ending other sessions; answers until when such changes are allowed. A wrong answer is 422 INVALID_INPUT and counts toward the lockout (429 when locked). Cookie session only.
     */
    post: operations['reauthenticate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Renew the session
     * @description Exchanges the refresh cookie (`svc_refresh`) for a new access token and a new refresh cookie; the old refresh token stops working. 401 REFRESH_SUPERSEDED when a concurrent request refreshed first (retry once), 401 REFRESH_FAILED when the session cannot be renewed (sign in again). A rotated refresh token presented again ends its session. A browser sends the CSRF token (`GET /admin/api/auth/csrf`) in the `X-CSRF-Token` header; a request with an `Authorization: Bearer` header needs none.
     */
    post: operations['refreshSession'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an account
     * @description Registers an account and emails a verification link. The answer is the same, after the same delay, whether or not the address is taken (unless `auth.revealRegistrationConflict` is on: then 409 DUPLICATE). Public. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/reset-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a new password with a reset link
     * @description Sets the password with the token of the emailed reset link; the address counts as verified, every session of the account ends and a notice is emailed. 422 INVALID_INPUT for an unknown, used or expired link. Public. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['resetPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the signed-in user of the browser session
     * @description The user of the session cookie and when its access token expires (`exp`). Cookie session only: 401 AUTH_REQUIRED without a session.
     */
    get: operations['getSession'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List your sessions
     * @description The caller's live sessions, newest first; `current` marks the one making the request. Needs a signed-in person (session cookie or Bearer access token): an API key is 401.
     */
    get: operations['listSessions'];
    put?: never;
    post?: never;
    /**
     * End your other sessions
     * @description Ends every session of the caller except the current one, along with paused sign-ins and emailed sign-in links, and answers how many ended. Needs the browser session with a recent sign-in: 403 REAUTH_REQUIRED after `auth.reauthWindowSeconds` (10 minutes by default); confirm with `POST /admin/api/auth/reauthenticate`.
     */
    delete: operations['endOtherSessions'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/sessions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * End one of your sessions
     * @description Ends one of the caller's sessions; its tokens stop working. 404 for an ended session or another user's. An API key is 401.
     */
    delete: operations['endSession'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/set-initial-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace an administrator-set password and sign in
     * @description Finishes a sign-in paused because an administrator set the password and asked for it to be replaced: the new password is saved, the account's other sessions end, a notice is emailed, and a session opens. The pending token comes from the body or the `svc_pending` cookie. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['setInitialPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/setup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create the first administrator
     * @description Creates the first account, with the Super Admin role, and signs it in (session cookies set; the access token in the body). Public, and possible once: after that every call answers 403 SETUP_COMPLETE. When `auth.mfa` requires a second factor of this account, the answer is a challenge to set one up first. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['completeSetup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/setup-status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Check whether setup is done
     * @description Answers whether the first administrator exists (`completed`). Public: an admin app calls it to choose between the setup form and the sign-in form.
     */
    get: operations['getSetupStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/ui': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the plugin parts of the login page
     * @description The installed plugins' contributions to a login page: external sign-in buttons, the views of their challenges and extra slots. Public.
     */
    get: operations['getLoginUi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/verify-email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify an email address
     * @description Marks the address verified with the token of the emailed link. 422 INVALID_INPUT for an unknown, used or expired link. Public. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['verifyEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/auth/verify-email/resend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send the verification link again
     * @description Emails a new verification link when the address belongs to an active account that is not verified yet. The answer is the same for any address. Public. Draws on the per-address sign-in budget shared by the sign-in, password and registration routes (`security.authRateLimit`, 30 an hour by default): 429 RATE_LIMITED with `Retry-After` once it is spent.
     */
    post: operations['resendVerificationEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List collections
     * @description The collection definitions, with search, sort and paging. Any signed-in caller.
     */
    get: operations['listCollections'];
    put?: never;
    /**
     * Create a collection
     * @description Creates a collection, its table and its permissions (`read-<slug>`, `create-<slug>`...); `access` may open reading or creating entries to anyone, `versions` keeps entry versions. 409 CONFLICT when the slug or its permissions are taken. Needs `manage-settings`.
     */
    post: operations['createCollection'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a collection
     * @description One collection definition. Under the collection's read access.
     */
    get: operations['getCollection'];
    put?: never;
    post?: never;
    /**
     * Delete a collection
     * @description Deletes the collection with its table, every entry and its permissions. 409 CONFLICT while another definition refers to it, or for a collection not made over the API. Needs `manage-settings`.
     */
    delete: operations['deleteCollection'];
    options?: never;
    head?: never;
    /**
     * Update a collection
     * @description Changes a collection's labels, drafts, fields, access or versions; a fields or drafts change is applied as by the schema apply route (access and versions change no table). Needs `manage-settings`.
     */
    patch: operations['updateCollection'];
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List entries of a collection
     * @description One page of entries with `where` filters, `sort`, `select`, `depth` (relationships expanded), `richTextFormat` and, on collections with drafts, `status`. Under the collection's read access; drafts need `read-<slug>`.
     */
    get: operations['listEntries'];
    put?: never;
    /**
     * Create an entry
     * @description Creates an entry from a JSON body (the media collection takes a `multipart/form-data` upload: the file and its text fields). 400 VALIDATION_ERROR lists every problem; 409 DUPLICATE for a repeated unique value. Under the collection's create access.
     */
    post: operations['createEntry'];
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update every entry a filter matches
     * @description Applies `data` to every entry `where` matches, in one transaction, and reports what was updated and what was refused. Needs the collection's update and read access; drafts are matched only for a caller who may read them.
     */
    patch: operations['updateEntriesWhere'];
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an entry
     * @description One entry, with `select`, `depth`, `richTextFormat` and, on collections with drafts, `status` (published by default; drafts need `read-<slug>`). Answers the entry's `ETag` (304 for an `If-None-Match` naming it). Under the collection's read access. A preview token (`X-Preview-Token` or `preview`) naming the entry stands in for credentials: its newest state, draft included, with related entries as a visitor sees them; any other token is 401.
     */
    get: operations['getEntry'];
    put?: never;
    post?: never;
    /**
     * Delete an entry
     * @description Deletes an entry (for media, its stored files too) and its versions; references to it are cleared. `If-Match` makes it conditional (412 when the entry changed since). Under the collection's delete access.
     */
    delete: operations['deleteEntry'];
    options?: never;
    head?: never;
    /**
     * Update an entry
     * @description Changes the fields sent; the others keep their values (409 DUPLICATE for a repeated unique value). With `If-Match` naming the entry's `ETag`, a change made since is a 412 PRECONDITION_FAILED. On collections with drafts, publishing, unpublishing or changing a published entry also needs `publish-<slug>`. Under the collection's update access.
     */
    patch: operations['updateEntry'];
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}/duplicate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Duplicate an entry
     * @description Copies an entry (as a draft on collections with drafts). 409 DUPLICATE when a unique value would repeat. Needs the collection's create and read access.
     */
    post: operations['duplicateEntry'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}/preview-token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get a preview token for an entry
     * @description A token that reads this entry's newest state, draft included, with no other credentials, for `expiresInSeconds` (1 to 604800, default 3600); `url` is the collection's preview page with the token in it, when it has one. Needs `read-<slug>` (a signed-in user; API keys cannot get one). The token stops working when it expires, or when its issuer is deactivated, has a password change or loses `read-<slug>`.
     */
    post: operations['createEntryPreviewToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}/schedule': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an entry's schedules
     * @description Every schedule of the entry (`pending`, `done`, `failed`, `cancelled`), latest time first (`page`, `limit`). Needs `read-<slug>`.
     */
    get: operations['listEntrySchedules'];
    put?: never;
    /**
     * Schedule publishing or unpublishing an entry
     * @description Plans `publish` or `unpublish` of the entry at `at` (in the future, within a year). It runs within seconds of that time, once, with its creator's rights then; it ends `done`, or `failed` with `error` (creator deactivated or without the right, required fields missing, entry deleted). Needs `publish-<slug>`; 409 on a collection without drafts.
     */
    post: operations['scheduleEntryChange'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}/schedule/{scheduleId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Cancel a schedule of an entry
     * @description A pending schedule becomes `cancelled`; any other is a 409. Needs `publish-<slug>`.
     */
    delete: operations['cancelEntrySchedule'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an entry's versions
     * @description The versions of an entry, newest first (`page`, `limit`), on collections with versions on: one at every write that changed it, the oldest beyond the collection's maximum removed. Needs `read-<slug>` (a version may hold a draft).
     */
    get: operations['listEntryVersions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}/versions/{versionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a version of an entry
     * @description One version with every field; with `compare` (another version id, or `current`), also `changes`: the fields that differ, `from` this version and `to` the compared one. Needs `read-<slug>`.
     */
    get: operations['getEntryVersion'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/{id}/versions/{versionId}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Restore a version of an entry
     * @description The entry takes the version's field data and keeps its status; `publish: true` also publishes a draft. Writes a `restore` version. Needs `update-<slug>`, and `publish-<slug>` when the entry is published or `publish` is asked.
     */
    post: operations['restoreEntryVersion'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/bulk-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Delete entries by id
     * @description Deletes the listed entries and reports which were deleted and which ids were not found. Under the collection's delete access.
     */
    post: operations['bulkDeleteEntries'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/bulk-update': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Update entries by id
     * @description Applies `data` to each listed entry; an entry the change would make invalid is left unchanged and reported in `errors`. Under the collection's update access.
     */
    post: operations['bulkUpdateEntries'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/{slug}/entries/count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Count entries of a collection
     * @description The number of entries matching `where` (and `status` on collections with drafts). Under the collection's read access.
     */
    get: operations['countEntries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/media/entries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List media entries
     * @description One page of entries with `where` filters, `sort`, `select`, `depth` (relationships expanded), `richTextFormat` and, on collections with drafts, `status`. Under the collection's read access; drafts need `read-<slug>`. This operation serves the `media` collection only, typed with its schemas.
     */
    get: operations['listMediaEntries'];
    put?: never;
    /**
     * Create a media entry
     * @description Creates an entry from a JSON body (the media collection takes a `multipart/form-data` upload: the file and its text fields). 400 VALIDATION_ERROR lists every problem; 409 DUPLICATE for a repeated unique value. Under the collection's create access. This operation serves the `media` collection only, typed with its schemas.
     */
    post: operations['createMediaEntry'];
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update the media entries a filter matches
     * @description Applies `data` to every entry `where` matches, in one transaction, and reports what was updated and what was refused. Needs the collection's update and read access; drafts are matched only for a caller who may read them. This operation serves the `media` collection only, typed with its schemas.
     */
    patch: operations['updateMediaEntriesWhere'];
    trace?: never;
  };
  '/admin/api/collections/media/entries/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a media entry
     * @description One entry, with `select`, `depth`, `richTextFormat` and, on collections with drafts, `status` (published by default; drafts need `read-<slug>`). Answers the entry's `ETag` (304 for an `If-None-Match` naming it). Under the collection's read access. A preview token (`X-Preview-Token` or `preview`) naming the entry stands in for credentials: its newest state, draft included, with related entries as a visitor sees them; any other token is 401. This operation serves the `media` collection only, typed with its schemas.
     */
    get: operations['getMediaEntry'];
    put?: never;
    post?: never;
    /**
     * Delete a media entry
     * @description Deletes an entry (for media, its stored files too) and its versions; references to it are cleared. `If-Match` makes it conditional (412 when the entry changed since). Under the collection's delete access. This operation serves the `media` collection only, typed with its schemas.
     */
    delete: operations['deleteMediaEntry'];
    options?: never;
    head?: never;
    /**
     * Update a media entry
     * @description Changes the fields sent; the others keep their values (409 DUPLICATE for a repeated unique value). With `If-Match` naming the entry's `ETag`, a change made since is a 412 PRECONDITION_FAILED. On collections with drafts, publishing, unpublishing or changing a published entry also needs `publish-<slug>`. Under the collection's update access. This operation serves the `media` collection only, typed with its schemas.
     */
    patch: operations['updateMediaEntry'];
    trace?: never;
  };
  '/admin/api/collections/media/entries/{id}/duplicate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Duplicate a media entry
     * @description Copies an entry (as a draft on collections with drafts). 409 DUPLICATE when a unique value would repeat. Needs the collection's create and read access. This operation serves the `media` collection only, typed with its schemas.
     */
    post: operations['duplicateMediaEntry'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/media/entries/bulk-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Delete media entries by id
     * @description Deletes the listed entries and reports which were deleted and which ids were not found. Under the collection's delete access. This operation serves the `media` collection only, typed with its schemas.
     */
    post: operations['deleteMediaEntries'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/media/entries/bulk-update': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Update media entries by id
     * @description Applies `data` to each listed entry; an entry the change would make invalid is left unchanged and reported in `errors`. Under the collection's update access. This operation serves the `media` collection only, typed with its schemas.
     */
    post: operations['updateMediaEntries'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/media/entries/count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Count media entries
     * @description The number of entries matching `where` (and `status` on collections with drafts). Under the collection's read access. This operation serves the `media` collection only, typed with its schemas.
     */
    get: operations['countMediaEntries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/schema/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a collection's full schema
     * @description The collection's definition with every component field carrying its field group's fields, for building forms. Under the collection's read access.
     */
    get: operations['getCollectionSchema'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/schema/{slug}/apply': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Apply a schema change to a collection
     * @description Changes the collection's fields (and drafts) and its table in one step, and records it in the schema journal. Changes that may delete stored values need `confirmDestructive: true` (409 otherwise); a collection defined in the configuration file or built into the service is 409. Needs `manage-settings`.
     */
    post: operations['applyCollectionSchema'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/collections/schema/{slug}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview a schema change of a collection
     * @description The changes applying these fields would make, and whether any may delete stored values; nothing is changed. Needs `manage-settings`.
     */
    post: operations['previewCollectionSchema'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/dashboard/activity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List recent activity
     * @description Recent audit events: all of them for a super-admin, otherwise the caller's own and those about what the caller's permissions cover. Browser session only.
     */
    get: operations['listActivity'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/dashboard/recent-entries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List recently changed entries
     * @description The latest changed entries across the collections the caller may read (drafts only where the caller may read them). Browser session only.
     */
    get: operations['listRecentContent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/dashboard/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get dashboard figures
     * @description Entry counts (published and drafts) of the collections the caller may read, the number and total size of media files and, with `read-users`, user counts. Browser session only.
     */
    get: operations['getDashboardStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/email-providers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List email providers
     * @description The SMTP providers email is sent through (never their passwords). Needs `read-email-providers`.
     */
    get: operations['listEmailProviders'];
    put?: never;
    /**
     * Create an email provider
     * @description Adds an SMTP provider; the password is stored encrypted and never answered. It becomes the default with `isDefault: true`, or when there is no default yet. Needs `create-email-providers`.
     */
    post: operations['createEmailProvider'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/email-providers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an email provider
     * @description One SMTP provider (never its password). Needs `read-email-providers`.
     */
    get: operations['getEmailProvider'];
    put?: never;
    post?: never;
    /**
     * Delete an email provider
     * @description Deletes an SMTP provider. Needs `delete-email-providers`.
     */
    delete: operations['deleteEmailProvider'];
    options?: never;
    head?: never;
    /**
     * Update an email provider
     * @description Changes a provider's name, sender or SMTP settings; absent settings keep their value. Needs `update-email-providers`.
     */
    patch: operations['updateEmailProvider'];
    trace?: never;
  };
  '/admin/api/email-providers/{id}/default': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Make an email provider the default
     * @description Email is sent through this provider from now on. Needs `update-email-providers`.
     */
    patch: operations['setDefaultEmailProvider'];
    trace?: never;
  };
  '/admin/api/email-providers/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test email through a provider
     * @description Sends a short test email to the given address through this provider, default or not. 503 SERVICE_UNAVAILABLE with the reason when the SMTP server cannot be used. Needs `read-email-providers`.
     */
    post: operations['sendTestEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/email-templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List email templates
     * @description The email templates, the built-in ones (verification, reset, invitation...) included. Needs `read-email-templates`.
     */
    get: operations['listEmailTemplates'];
    put?: never;
    /**
     * Create an email template
     * @description Adds a template with `{{variable}}` placeholders in its subject and bodies. 409 DUPLICATE for a taken slug. Needs `create-email-templates`.
     */
    post: operations['createEmailTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/email-templates/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an email template
     * @description One email template. Needs `read-email-templates`.
     */
    get: operations['getEmailTemplate'];
    put?: never;
    post?: never;
    /**
     * Delete an email template
     * @description Deletes a template; the built-in ones cannot be deleted (409). Needs `delete-email-templates`.
     */
    delete: operations['deleteEmailTemplate'];
    options?: never;
    head?: never;
    /**
     * Update an email template
     * @description Changes the fields sent. A built-in template keeps its slug (409). Needs `update-email-templates`.
     */
    patch: operations['updateEmailTemplate'];
    trace?: never;
  };
  '/admin/api/email-templates/{id}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview an email template
     * @description Renders the template with the given variables, in the layout, without sending anything. Needs `read-email-templates`.
     */
    post: operations['previewEmailTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/email-templates/layout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the email layout
     * @description The header and footer every email is wrapped in. Needs `read-email-templates`.
     */
    get: operations['getEmailLayout'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update the email layout
     * @description Changes the header or footer every email is wrapped in. Needs `update-email-templates`.
     */
    patch: operations['updateEmailLayout'];
    trace?: never;
  };
  '/admin/api/email/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send an email
     * @description Sends an email through the default email provider, wrapped in the email layout. Without a provider it is written to the server log in development, and 503 SERVICE_UNAVAILABLE in production; 503 too when the SMTP server refuses it. Any signed-in caller.
     */
    post: operations['sendEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/email/send-with-template': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send an email from a template
     * @description Renders the template (by slug) with the variables and sends it through the default email provider. 404 for an unknown template; 503 as for a plain email. Any signed-in caller.
     */
    post: operations['sendTemplateEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/field-groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List field groups
     * @description The field groups (reusable sets of fields for component fields), with search, sort and paging. Any signed-in caller.
     */
    get: operations['listFieldGroups'];
    put?: never;
    /**
     * Create a field group
     * @description Creates a reusable set of fields that component fields of collections and singles embed. 409 CONFLICT for a taken slug. Needs `manage-settings`.
     */
    post: operations['createFieldGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/field-groups/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a field group
     * @description One field group definition. Any signed-in caller.
     */
    get: operations['getFieldGroup'];
    put?: never;
    post?: never;
    /**
     * Delete a field group
     * @description Deletes a field group. 409 CONFLICT while a component field still embeds it, or for a field group not made over the API. Needs `manage-settings`.
     */
    delete: operations['deleteFieldGroup'];
    options?: never;
    head?: never;
    /**
     * Update a field group
     * @description Changes a field group's label or fields; a fields change is applied as by the schema apply route. Needs `manage-settings`.
     */
    patch: operations['updateFieldGroup'];
    trace?: never;
  };
  '/admin/api/field-groups/schema/{slug}/apply': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Apply a schema change to a field group
     * @description Changes the field group's fields in one step and records it in the schema journal. Changes that may delete stored values need `confirmDestructive: true` (409 otherwise). Needs `manage-settings`.
     */
    post: operations['applyFieldGroupSchema'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/field-groups/schema/{slug}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview a schema change of a field group
     * @description The changes applying these fields would make, and whether any may delete stored values; nothing is changed. Needs `manage-settings`.
     */
    post: operations['previewFieldGroupSchema'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/general-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the general settings
     * @description The site's name, description, URL, logo, time zone, date format and custom settings. Needs `manage-settings`.
     */
    get: operations['getGeneralSettings'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update the general settings
     * @description Changes the keys sent; absent ones keep their value. Every problem of the body is reported in one 400 answer. Needs `manage-settings`.
     */
    patch: operations['updateGeneralSettings'];
    trace?: never;
  };
  '/admin/api/image-sizes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List image sizes
     * @description The sizes uploaded images are resized to. Any signed-in caller.
     */
    get: operations['listImageSizes'];
    put?: never;
    /**
     * Create an image size
     * @description Adds a size that new uploads are made in (existing images get it by regenerating). 409 DUPLICATE for a taken name, 409 CONFLICT past the maximum number of sizes. Needs `manage-settings`.
     */
    post: operations['createImageSize'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/image-sizes/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete an image size
     * @description Deletes a size; new uploads are no longer made in it. Needs `manage-settings`.
     */
    delete: operations['deleteImageSize'];
    options?: never;
    head?: never;
    /**
     * Update an image size
     * @description Changes the name, dimensions, fit, format or quality of a size (existing images get it by regenerating). 409 DUPLICATE for a taken name. Needs `manage-settings`.
     */
    patch: operations['updateImageSize'];
    trace?: never;
  };
  '/admin/api/image-sizes/regenerate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Regenerate every image size
     * @description Queues a background run that remakes every size of every stored image; answers 202 with the run. 409 CONFLICT while a run is queued or running. Needs `manage-settings`.
     */
    post: operations['regenerateImageSizes'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/image-sizes/regeneration-status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the progress of an image regeneration
     * @description The latest regeneration run of image sizes and its progress. Any signed-in caller.
     */
    get: operations['getImageRegenerationStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get your own user record
     * @description The caller's own user record, custom user fields included. Any signed-in caller.
     */
    get: operations['getCurrentUser'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update your profile
     * @description Changes the caller's own name, image and custom user fields (never the email, roles or status). A person's credential only: an API key is 401.
     */
    patch: operations['updateCurrentUser'];
    trace?: never;
  };
  '/admin/api/me/permissions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get your permissions
     * @description The permission slugs the caller holds through their roles (or the API key), and whether they are a super-admin (who passes every check).
     */
    get: operations['getMyPermissions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/media/{id}/{filename}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a media file
     * @description The stored file in its stored type, whole or a byte range (`Range`), with 304 to a matching conditional request and 416 for a range past the end. Under the media collection's read access (visitors too when media is public).
     */
    get: operations['downloadMediaFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/media/{id}/{size}/{filename}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a resized image
     * @description One image size of a stored image, answered like the original file (ranges, conditional requests). Under the media collection's read access.
     */
    get: operations['downloadMediaFileSize'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/permissions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List permissions
     * @description One page of permissions, with search, sort and paging. Needs `read-permissions` or `read-roles`.
     */
    get: operations['listPermissions'];
    put?: never;
    /**
     * Create a permission
     * @description Creates a permission an application can check and roles can grant. 409 DUPLICATE for a taken slug. Needs `create-permissions`.
     */
    post: operations['createPermission'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/permissions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a permission
     * @description One permission. Needs `read-permissions` or `read-roles`.
     */
    get: operations['getPermission'];
    put?: never;
    post?: never;
    /**
     * Delete a permission
     * @description Deletes a permission and every role's grant of it. The permissions the service's routes check and those of a collection or single cannot be deleted (409). Needs `delete-permissions`.
     */
    delete: operations['deletePermission'];
    options?: never;
    head?: never;
    /**
     * Rename a permission
     * @description Changes a permission's name or description; its slug, which is what routes check, stays. Needs `update-permissions`.
     */
    patch: operations['updatePermission'];
    trace?: never;
  };
  '/admin/api/roles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List roles
     * @description One page of roles, with search, sort and paging. Needs `read-roles`.
     */
    get: operations['listRoles'];
    put?: never;
    /**
     * Create a role
     * @description Creates a role. 409 DUPLICATE for a taken slug. Needs `create-roles`.
     */
    post: operations['createRole'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/roles/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a role
     * @description One role. Needs `read-roles`.
     */
    get: operations['getRole'];
    put?: never;
    post?: never;
    /**
     * Delete a role
     * @description Deletes a role with its permission rows, inheritance links and user assignments; roles inheriting from it lose what it granted. 409 CONFLICT for Super Admin. Needs `delete-roles`.
     */
    delete: operations['deleteRole'];
    options?: never;
    head?: never;
    /**
     * Update a role
     * @description Changes the name, slug, level or description of a role. The system role Super Admin keeps its name and slug (409); only a super-admin may change a role built on Super Admin (403). Needs `update-roles`.
     */
    patch: operations['updateRole'];
    trace?: never;
  };
  '/admin/api/roles/{id}/children': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the roles that inherit from a role
     * @description The role's children: roles that inherit every permission of this one. Needs `read-roles`.
     */
    get: operations['listChildRoles'];
    put?: never;
    /**
     * Make a role inherit from this one
     * @description Makes the given role a child of this one: it then holds every permission of this role too; answers the updated role. 409 CONFLICT for a link to itself, for Super Admin as the child, or for a cycle; only a super-admin may build a role on Super Admin (403). Needs `update-roles`.
     */
    post: operations['addChildRole'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/roles/{id}/children/{childId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Stop a role inheriting from this one
     * @description Removes the link to a child role, which loses what it inherited through it; answers the updated role. Needs `update-roles`.
     */
    delete: operations['removeChildRole'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/roles/{id}/parents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the roles a role inherits from
     * @description The role's parents: the roles whose permissions it inherits. Needs `read-roles`.
     */
    get: operations['listParentRoles'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/roles/{id}/permissions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a role's permissions
     * @description The permissions granted by the role itself. Needs `read-roles` or `read-permissions`.
     */
    get: operations['listRolePermissions'];
    put?: never;
    /**
     * Add permissions to a role
     * @description Grants more permissions through the role; answers the updated role. Super Admin's permissions cannot be edited (409). Needs `update-roles`.
     */
    post: operations['addRolePermissions'];
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Replace a role's permissions
     * @description Sets the role's permissions to exactly the given list; answers the updated role. Super Admin's permissions cannot be edited (409). Needs `update-roles`.
     */
    patch: operations['replaceRolePermissions'];
    trace?: never;
  };
  '/admin/api/roles/{id}/permissions/{permissionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a permission from a role
     * @description Takes one permission away from the role; answers the updated role. Needs `update-roles`.
     */
    delete: operations['removeRolePermission'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/schema/journal': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List applied schema changes
     * @description Every schema change applied to collections, singles and field groups, newest first, with who applied it. Super-admins only, with the browser session.
     */
    get: operations['listSchemaChanges'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List singles
     * @description The single definitions, with search, sort and paging. Any signed-in caller.
     */
    get: operations['listSingles'];
    put?: never;
    /**
     * Create a single
     * @description Creates a single (one record of content, such as a site's footer), its table and its permissions; `access` may open reading it to anyone, `versions` keeps its versions. 409 CONFLICT when the slug or its permissions are taken. Needs `manage-settings`.
     */
    post: operations['createSingle'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a single's content
     * @description The single's one record, with `select`, `depth`, `richTextFormat` and, on singles with drafts, `status` (published by default; drafts need `read-<slug>`). 404 before its first save, or when it holds no version of the status asked for. Under the single's read access. A preview token (`X-Preview-Token` or `preview`) for the single stands in for credentials and reads its newest state, draft included; any other token is 401.
     */
    get: operations['getSingleContent'];
    put?: never;
    post?: never;
    /**
     * Delete a single
     * @description Deletes the single with its content and permissions. 409 CONFLICT while another definition refers to it, or for a single not made over the API. Needs `manage-settings`.
     */
    delete: operations['deleteSingle'];
    options?: never;
    head?: never;
    /**
     * Update a single's content
     * @description Saves the fields sent; the first save creates the record (as a draft on singles with drafts). `If-Match` with the `ETag` makes it conditional (412 when it changed since). On singles with drafts, publishing, unpublishing or changing the published content also needs `publish-<slug>`. Under the single's update access.
     */
    patch: operations['updateSingleContent'];
    trace?: never;
  };
  '/admin/api/singles/{slug}/preview-token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get a preview token for a single
     * @description A token that reads the single's newest state, draft included, with no other credentials, for `expiresInSeconds` (1 to 604800, default 3600); `url` is the single's preview page with the token in it, when it has one. Needs `read-<slug>` (a signed-in user; API keys cannot get one). The token stops working when it expires, or when its issuer is deactivated, has a password change or loses `read-<slug>`.
     */
    post: operations['createSinglePreviewToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/{slug}/schedule': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a single's schedules
     * @description Every schedule of the single, latest time first (`page`, `limit`). Needs `read-<slug>`.
     */
    get: operations['listSingleSchedules'];
    put?: never;
    /**
     * Schedule publishing or unpublishing a single
     * @description Plans `publish` or `unpublish` of the single at `at` (in the future, within a year), run once with its creator's rights then. Needs `publish-<slug>`.
     */
    post: operations['scheduleSingleChange'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/{slug}/schedule/{scheduleId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Cancel a schedule of a single
     * @description A pending schedule becomes `cancelled`; any other is a 409. Needs `publish-<slug>`.
     */
    delete: operations['cancelSingleSchedule'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/{slug}/schema': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a single's full schema
     * @description The single's definition with every component field carrying its field group's fields. Under the single's read access.
     */
    get: operations['getSingleSchema'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update a single's definition
     * @description Changes a single's label, drafts, fields, access or versions; a fields or drafts change is applied as by the schema apply route (access and versions change no table). Needs `manage-settings`.
     */
    patch: operations['updateSingleDefinition'];
    trace?: never;
  };
  '/admin/api/singles/{slug}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a single's versions
     * @description The versions of a single with versions on, newest first (`page`, `limit`). Needs `read-<slug>`.
     */
    get: operations['listSingleVersions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/{slug}/versions/{versionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a version of a single
     * @description One version; with `compare` (another version id, or `current`), also the fields that differ. Needs `read-<slug>`.
     */
    get: operations['getSingleVersion'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/{slug}/versions/{versionId}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Restore a version of a single
     * @description The single takes the version's field data and keeps its status; `publish: true` also publishes a draft. Needs `update-<slug>`, and `publish-<slug>` when it is published or `publish` is asked.
     */
    post: operations['restoreSingleVersion'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/schema/{slug}/apply': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Apply a schema change to a single
     * @description Changes the single's fields (and drafts) and its table in one step, and records it in the schema journal. Changes that may delete stored values need `confirmDestructive: true` (409 otherwise). Needs `manage-settings`.
     */
    post: operations['applySingleSchema'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/singles/schema/{slug}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview a schema change of a single
     * @description The changes applying these fields would make, and whether any may delete stored values; nothing is changed. Needs `manage-settings`.
     */
    post: operations['previewSingleSchema'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/user-fields': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List custom user fields
     * @description The custom fields user records carry, in their display order. Needs `read-settings`.
     */
    get: operations['listUserFields'];
    put?: never;
    /**
     * Create a custom user field
     * @description Adds a custom field to every user record (`text`, `textarea`, `email`, `number`, `checkbox`, `date`, `select` or `json`). 409 DUPLICATE for a taken name. Needs `create-settings`.
     */
    post: operations['createUserField'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/user-fields/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a custom user field
     * @description One custom user field. Needs `read-settings`.
     */
    get: operations['getUserField'];
    put?: never;
    post?: never;
    /**
     * Delete a custom user field
     * @description Removes the field from user records. A field defined in the configuration file is 409. Needs `delete-settings`.
     */
    delete: operations['deleteUserField'];
    options?: never;
    head?: never;
    /**
     * Update a custom user field
     * @description Changes a field's label, whether it is required, or its options; its name and type stay. A field defined in the configuration file is 409. Needs `update-settings`.
     */
    patch: operations['updateUserField'];
    trace?: never;
  };
  '/admin/api/user-fields/reorder': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Reorder custom user fields
     * @description Sets the display order: every field id exactly once, in the new order; answers the reordered list. Needs `update-settings`.
     */
    patch: operations['reorderUserFields'];
    trace?: never;
  };
  '/admin/api/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List users
     * @description One page of users, with search, sort (`email`, `name`, `createdAt`, `lastLoginAt`) and paging. Needs `read-users`.
     */
    get: operations['listUsers'];
    put?: never;
    /**
     * Create a user
     * @description Creates an account with the given roles and custom user fields. Without a password, `sendInvite: true` emails an invitation link to choose one; `requirePasswordChange` makes the first sign-in replace the password. 409 DUPLICATE for a taken address; only a super-admin may grant Super Admin (403). Needs `create-users`.
     */
    post: operations['createUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/users/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a user
     * @description One user record, custom user fields included. Needs `read-users`.
     */
    get: operations['getUser'];
    put?: never;
    post?: never;
    /**
     * Delete a user
     * @description Deletes the account with its sessions, emailed links and API keys; answers the deleted record. 409 CONFLICT for the last active super-admin. Needs `delete-users`. Only a super-admin may act on a super-admin's account (403 otherwise).
     */
    delete: operations['deleteUser'];
    options?: never;
    head?: never;
    /**
     * Update a user
     * @description Changes the email, name, image, status, verification or custom user fields of a user; deactivating an account stops its sessions. 409 DUPLICATE for a taken address. Needs `update-users`. Only a super-admin may act on a super-admin's account (403 otherwise).
     */
    patch: operations['updateUser'];
    trace?: never;
  };
  '/admin/api/users/{id}/password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Set a user's password
     * @description Sets a new password for the user; every session of the user ends and a notice is emailed. With `requirePasswordChange`, the next sign-in asks for a new password before a session. Needs `update-users`. Only a super-admin may act on a super-admin's account (403 otherwise).
     */
    patch: operations['setUserPassword'];
    trace?: never;
  };
  '/admin/api/users/{id}/roles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a user's roles
     * @description The roles assigned to the user. Needs `read-roles`.
     */
    get: operations['listUserRoles'];
    put?: never;
    /**
     * Assign a role to a user
     * @description Assigns one role; answers the updated user. Only a super-admin may grant Super Admin or a role built on it (403). Needs `update-users`. Only a super-admin may act on a super-admin's account (403 otherwise).
     */
    post: operations['addUserRole'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/users/{id}/roles/{roleId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a role from a user
     * @description Takes one role away; answers the updated user. 404 when the user does not hold it; 409 CONFLICT when it would leave no active super-admin. Needs `update-users`. Only a super-admin may act on a super-admin's account (403 otherwise).
     */
    delete: operations['removeUserRole'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/users/{id}/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a user's sessions
     * @description An administrator's view of a user's live sessions. Needs `read-users`.
     */
    get: operations['listUserSessions'];
    put?: never;
    post?: never;
    /**
     * End all of a user's sessions
     * @description Signs the user out everywhere: every session ends and its tokens stop working; answers how many ended. Needs `update-users`. Only a super-admin may act on a super-admin's account (403 otherwise).
     */
    delete: operations['endUserSessions'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhook endpoints
     * @description The endpoints events are sent to, with their subscriptions and state (never their secrets). Needs `read-webhooks`.
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Create a webhook endpoint
     * @description Adds an endpoint that receives a signed `POST` for each event it subscribes to (`*`: all). The signing secret is answered here and by a rotation only, and stored encrypted. The URL must be `http` or `https`; an address in a private, loopback or link-local range is 400 VALIDATION_ERROR unless `webhooks.allowPrivateNetworks` is on. Needs `create-webhooks`.
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a webhook endpoint
     * @description One endpoint (never its secret). Needs `read-webhooks`.
     */
    get: operations['getWebhook'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description Deletes the endpoint with its deliveries: pending ones are never attempted. Needs `delete-webhooks`.
     */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    /**
     * Update a webhook endpoint
     * @description Changes any field of the create; absent fields keep their value. Enabling a disabled endpoint clears its `failureCount` and `disabledReason`; events that happened while it was disabled are not sent. Needs `update-webhooks`.
     */
    patch: operations['updateWebhook'];
    trace?: never;
  };
  '/admin/api/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the deliveries of a webhook endpoint
     * @description The deliveries to this endpoint, newest first, filtered by `status` and `event`; kept for 30 days. Needs `read-webhooks`.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/webhooks/{id}/deliveries/{deliveryId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a webhook delivery with its attempts
     * @description One delivery with the log of its attempts (time, answer status, error, duration and the first 2 KiB of the answer) and the body every attempt sends. Needs `read-webhooks`.
     */
    get: operations['getWebhookDelivery'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/webhooks/{id}/deliveries/{deliveryId}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay a webhook delivery
     * @description Queues a new delivery of the same event, with the same `webhook-id`, attempted at once; answers 202 with its id. Needs `update-webhooks`.
     */
    post: operations['resendWebhookDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret of a webhook endpoint
     * @description Answers a new signing secret, shown this once; every later attempt, retries of earlier deliveries included, is signed with it. Needs `update-webhooks`.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/api/webhooks/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test event to a webhook endpoint
     * @description Queues a `webhook.test` event (`data: { webhookId }`) to this endpoint only, whatever it subscribes to, and answers 202 with its `webhook-id`; the delivery log shows how it went. Needs `update-webhooks`.
     */
    post: operations['sendWebhookTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Check the service health
     * @description The version, uptime and a database probe (and Redis, when configured, reported but not counted in `ok`). 503 SERVICE_UNAVAILABLE when the database probe fails. Public; a success may be cached for 60 seconds.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the Prometheus metrics
     * @description The Prometheus text format (version 0.0.4): requests by route template and status, their durations, sign-ins, rate-limit refusals, the database pool, webhook deliveries, job queues, cache lookups, and Node process series. Only with `SVC_METRICS_TOKEN` set (404 otherwise), and only for `Authorization: Bearer <that token>`: any other credential is 401 AUTH_REQUIRED.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /**
     * @description What went wrong, with the HTTP status each code answers: VALIDATION_ERROR (400), AUTH_REQUIRED (401), AUTH_INVALID_CREDENTIALS (401), REFRESH_FAILED (401), REFRESH_SUPERSEDED (401), FORBIDDEN (403), EMAIL_NOT_VERIFIED (403), SETUP_COMPLETE (403), CSRF_FAILED (403), REAUTH_REQUIRED (403), NOT_FOUND (404), CONFLICT (409), DUPLICATE (409), PRECONDITION_FAILED (412), PAYLOAD_TOO_LARGE (413), UNSUPPORTED_MEDIA_TYPE (415), INVALID_INPUT (422), RATE_LIMITED (429), INTERNAL_ERROR (500), DATABASE_ERROR (500), SERVICE_UNAVAILABLE (503)
     * @enum {string}
     */
    ErrorCode:
      | 'VALIDATION_ERROR'
      | 'AUTH_REQUIRED'
      | 'AUTH_INVALID_CREDENTIALS'
      | 'REFRESH_FAILED'
      | 'REFRESH_SUPERSEDED'
      | 'FORBIDDEN'
      | 'EMAIL_NOT_VERIFIED'
      | 'SETUP_COMPLETE'
      | 'CSRF_FAILED'
      | 'REAUTH_REQUIRED'
      | 'NOT_FOUND'
      | 'CONFLICT'
      | 'DUPLICATE'
      | 'PRECONDITION_FAILED'
      | 'PAYLOAD_TOO_LARGE'
      | 'UNSUPPORTED_MEDIA_TYPE'
      | 'INVALID_INPUT'
      | 'RATE_LIMITED'
      | 'INTERNAL_ERROR'
      | 'DATABASE_ERROR'
      | 'SERVICE_UNAVAILABLE';
    ValidationIssue: {
      path: string;
      code: string;
      message: string;
    };
    /** @description Every failure, content type `application/problem+json`. */
    Problem: {
      error: {
        code: components['schemas']['ErrorCode'];
        message: string;
        requestId: string;
        /** @description Details: validation issues (`errors`, at most 50, the rest counted in `omittedErrors`), `retryAfterSeconds`, or what the code documents. */
        data?: {
          errors?: components['schemas']['ValidationIssue'][];
          omittedErrors?: number;
          retryAfterSeconds?: number;
        };
      };
    };
    ListMeta: {
      total: number;
      page: number;
      limit: number;
      totalPages: number;
      hasNext: boolean;
      hasPrev: boolean;
    };
    CreateApiKeyDto: {
      name: string;
      description?: string | null;
      /** @enum {unknown} */
      type: 'read-only' | 'full-access' | 'role-based';
      /**
       * Format: uuid
       * @description required or not depending on other fields (ValidateIf)
       */
      roleId?: string | null;
      /** Format: date-time */
      expiresAt?: string | null;
      scopes?: string[] | null;
    };
    UpdateApiKeyDto: {
      name?: string;
      description?: string | null;
    };
    RotateApiKeyDto: {
      graceSeconds?: number | null;
    };
    AcceptInviteDto: {
      /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
      password: string;
      name?: string | null;
      token: string;
    };
    ResolveChallengeDto: {
      pendingToken?: string | null;
      response: unknown;
    };
    ChangePasswordDto: {
      currentPassword: string;
      /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
      newPassword: string;
    };
    EmailOnlyDto: {
      email: string;
    };
    LoginDto: {
      email: string;
      password: string;
    };
    ReauthenticateDto: {
      /** @description required or not depending on other fields (ValidateIf) */
      password?: string;
      /** @description required or not depending on other fields (ValidateIf) */
      code?: string;
    };
    RegisterDto: {
      /** Format: email */
      email: string;
      /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
      password: string;
      name: string;
    };
    ResetPasswordDto: {
      /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
      password: string;
      token: string;
    };
    SetInitialPasswordDto: {
      pendingToken?: string | null;
      /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
      newPassword: string;
    };
    SetupDto: {
      /** Format: email */
      email: string;
      name: string;
      /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
      password: string;
    };
    TokenDto: {
      token: string;
    };
    PreviewTokenDto: {
      expiresInSeconds?: number;
    };
    CreateEmailProviderDto: {
      name: string;
      /** @enum {unknown} */
      type?: 'smtp';
      /** Format: email */
      fromEmail: string;
      fromName?: string | null;
      config: components['schemas']['SmtpConfigDto'];
      isDefault?: boolean;
    };
    SmtpConfigDto: {
      host: string;
      port: number;
      secure?: boolean;
      user?: string | null;
      password?: string | null;
    };
    UpdateEmailProviderDto: {
      name?: string;
      /** @enum {unknown} */
      type?: 'smtp';
      /** Format: email */
      fromEmail?: string;
      fromName?: string | null;
      config?: components['schemas']['UpdateSmtpConfigDto'];
    };
    UpdateSmtpConfigDto: {
      host?: string;
      port?: number;
      secure?: boolean;
      user?: string | null;
      password?: string | null;
    };
    TestEmailProviderDto: {
      /** Format: email */
      to: string;
    };
    CreateEmailTemplateDto: {
      slug: string;
      name: string;
      subject: string;
      html: string;
      text?: string | null;
    };
    UpdateEmailTemplateDto: {
      slug?: string;
      name?: string;
      subject?: string;
      html?: string;
      text?: string | null;
    };
    PreviewEmailTemplateDto: {
      /** @description The values of the template's {{variables}}: at most 100, each a string (at most 10000 characters), a number, a boolean or null */
      variables?: {
        [key: string]: string | number | boolean | null;
      };
    };
    UpdateEmailLayoutDto: {
      header?: string;
      footer?: string;
    };
    SendEmailDto: {
      /** Format: email */
      to: string;
      subject: string;
      html: string;
      text?: string | null;
    };
    SendTemplateEmailDto: {
      /** Format: email */
      to: string;
      template: string;
      /** @description The values of the template's {{variables}}: at most 100, each a string (at most 10000 characters), a number, a boolean or null */
      variables?: {
        [key: string]: string | number | boolean | null;
      };
    };
    UpdateGeneralSettingsDto: {
      /** @description One line of at most 100 characters once trimmed */
      siteName?: string;
      /** @description At most 500 characters; empty or null clears it */
      siteDescription?: string | null;
      /** @description An absolute http:// or https:// URL without credentials; empty or null clears it */
      siteUrl?: string | null;
      /**
       * Format: uuid
       * @description The id of a media entry, or null for no logo
       */
      logoMediaId?: string | null;
      /** @description An IANA time zone name such as UTC or Europe/Paris (stored in its canonical spelling) */
      timezone?: string;
      /** @description One line of at most 32 characters once trimmed */
      dateFormat?: string;
      /** @description Any JSON object of the site's own settings, at most 65536 bytes as JSON */
      custom?: {
        [key: string]: unknown;
      };
    };
    CreateImageSizeDto: {
      name: string;
      width?: number | null;
      height?: number | null;
      /** @enum {unknown} */
      fit?: 'cover' | 'contain' | 'inside';
      /** @enum {unknown} */
      format?: 'webp' | 'jpeg' | 'png' | 'avif';
      quality?: number | null;
    };
    UpdateImageSizeDto: {
      name?: string;
      width?: number | null;
      height?: number | null;
      /** @enum {unknown} */
      fit?: 'cover' | 'contain' | 'inside';
      /** @enum {unknown} */
      format?: 'webp' | 'jpeg' | 'png' | 'avif';
      quality?: number | null;
    };
    CreatePermissionDto: {
      action: string;
      resource: string;
      name?: string;
      description?: string | null;
    };
    UpdatePermissionDto: {
      name?: string;
      description?: string | null;
    };
    CreateRoleDto: {
      name: string;
      slug?: string;
      level?: number;
      description?: string | null;
      permissionIds?: string[];
    };
    UpdateRoleDto: {
      name?: string;
      slug?: string;
      level?: number;
      description?: string | null;
    };
    AddChildRoleDto: {
      /** Format: uuid */
      childId: string;
    };
    ReplaceRolePermissionsDto: {
      permissionIds: string[];
    };
    AddRolePermissionsDto: {
      /**
       * Format: uuid
       * @description required or not depending on other fields (ValidateIf)
       */
      permissionId?: string;
      /** @description required or not depending on other fields (ValidateIf) */
      permissionIds?: string[];
    };
    CreateUserFieldDto: {
      /** @description A letter, then letters, digits or _ (at most 63 characters); not a name of the user record, the account or the access token's claims (`email`, `password`, `roles`, `sub`...), in any letter case */
      name: string;
      /** @enum {string} */
      type: 'text' | 'textarea' | 'email' | 'number' | 'checkbox' | 'date' | 'select' | 'json';
      /** @description At most 200 characters once trimmed; absent: the humanised name (`phoneNumber` -> `Phone number`) */
      label?: string;
      /** @description Whether every user record must hold a value (default false) */
      required?: boolean;
      /** @description `select` only, and required there: 1 to 200 options, each a value or `{ label, value }` (values unique, at most 200 characters once trimmed); other types take none */
      options?:
        | (
            | string
            | {
                label: string;
                value: string;
              }
          )[]
        | null;
    };
    UpdateUserFieldDto: {
      /** @description Only the current name: a field is never renamed */
      name?: string;
      /**
       * @description Only the current type: a field never changes type
       * @enum {string}
       */
      type?: 'text' | 'textarea' | 'email' | 'number' | 'checkbox' | 'date' | 'select' | 'json';
      /** @description At most 200 characters once trimmed; absent: the humanised name (`phoneNumber` -> `Phone number`) */
      label?: string;
      /** @description Whether every user record must hold a value (default false) */
      required?: boolean;
      /** @description `select` only, and required there: 1 to 200 options, each a value or `{ label, value }` (values unique, at most 200 characters once trimmed); other types take none */
      options?:
        | (
            | string
            | {
                label: string;
                value: string;
              }
          )[]
        | null;
    };
    ReorderUserFieldsDto: {
      /** @description Every user field id exactly once, in the new order */
      ids: string[];
    };
    SetUserPasswordDto: {
      /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
      password: string;
      requirePasswordChange?: boolean | null;
    };
    AssignRoleDto: {
      /** Format: uuid */
      roleId: string;
    };
    CreateWebhookDto: {
      name: string;
      url: string;
      events: (
        | 'entry.created'
        | 'entry.updated'
        | 'entry.deleted'
        | 'entry.published'
        | 'entry.unpublished'
        | 'single.updated'
        | 'single.published'
        | 'media.created'
        | 'media.deleted'
        | 'user.created'
        | 'user.updated'
        | 'user.deleted'
        | 'user.deactivated'
        | 'user.activated'
        | 'user.password-changed'
        | 'schema.applied'
        | 'webhook.test'
        | '*'
      )[];
      collections?: string[] | null;
      enabled?: boolean;
      description?: string | null;
    };
    UpdateWebhookDto: {
      name?: string;
      url?: string;
      events?: (
        | 'entry.created'
        | 'entry.updated'
        | 'entry.deleted'
        | 'entry.published'
        | 'entry.unpublished'
        | 'single.updated'
        | 'single.published'
        | 'media.created'
        | 'media.deleted'
        | 'user.created'
        | 'user.updated'
        | 'user.deleted'
        | 'user.deactivated'
        | 'user.activated'
        | 'user.password-changed'
        | 'schema.applied'
        | 'webhook.test'
        | '*'
      )[];
      collections?: string[] | null;
      enabled?: boolean;
      description?: string | null;
    };
    /** @description Any JSON value */
    JsonValue:
      | null
      | boolean
      | number
      | string
      | unknown[]
      | {
          [key: string]: components['schemas']['JsonValue'];
        };
    AuditEntry: {
      /** @description The audit row id (a bigint, as text) */
      id: string;
      event: string;
      actor: {
        /** Format: uuid */
        id: string;
        name: string;
      } | null;
      /** @description The stored `<type>:<id>` split at its first colon (`user:<id>` -> { type: "user", id }) */
      target: {
        type: string;
        id: string | null;
      } | null;
      ip: string | null;
      userAgent: string | null;
      strategy: string | null;
      metadata: {
        [key: string]: components['schemas']['JsonValue'];
      };
      /** Format: date-time */
      createdAt: string;
    };
    EmailProvider: {
      /** Format: uuid */
      id: string;
      name: string;
      /** @enum {string} */
      type: 'smtp';
      fromEmail: string;
      fromName: string | null;
      config: {
        host: string;
        port: number;
        secure: boolean;
        user: string | null;
        /**
         * @description The mask when a password is set, else null; never the password
         * @enum {string|null}
         */
        password: '********' | null;
      };
      isDefault: boolean;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    EmailTemplate: {
      /** Format: uuid */
      id: string;
      slug: string;
      name: string;
      subject: string;
      html: string;
      text: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    EmailLayout: {
      header: string;
      footer: string;
    };
    RenderedEmail: {
      subject: string;
      html: string;
      text: string;
    };
    EmailSent: {
      message: string;
      messageId: string | null;
    };
    Permission: {
      /** Format: uuid */
      id: string;
      slug: string;
      action: string;
      resource: string;
      name: string;
      description: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Role: {
      /** Format: uuid */
      id: string;
      name: string;
      slug: string;
      level: number;
      description: string | null;
      isSystem: boolean;
      permissions: {
        /** Format: uuid */
        id: string;
        slug: string;
      }[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    UserField: {
      /** Format: uuid */
      id: string;
      name: string;
      /** @enum {string} */
      type: 'text' | 'textarea' | 'email' | 'number' | 'checkbox' | 'date' | 'select' | 'json';
      label: string;
      required: boolean;
      options?: (
        | string
        | {
            label: string;
            value: string;
          }
      )[];
      order: number;
      /** @enum {string} */
      source: 'code' | 'ui';
    };
    RoleRef: {
      /** Format: uuid */
      id: string;
      name: string;
      slug: string;
    };
    User: {
      /** Format: uuid */
      id: string;
      email: string;
      name: string;
      image: string | null;
      isActive: boolean;
      emailVerified: boolean;
      roles: components['schemas']['RoleRef'][];
      /** Format: date-time */
      lastLoginAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    } & {
      [key: string]: unknown;
    };
    Webhook: {
      /** Format: uuid */
      id: string;
      name: string;
      url: string;
      /** @description The event types sent to it; `*` for all */
      events: (
        | 'entry.created'
        | 'entry.updated'
        | 'entry.deleted'
        | 'entry.published'
        | 'entry.unpublished'
        | 'single.updated'
        | 'single.published'
        | 'media.created'
        | 'media.deleted'
        | 'user.created'
        | 'user.updated'
        | 'user.deleted'
        | 'user.deactivated'
        | 'user.activated'
        | 'user.password-changed'
        | 'schema.applied'
        | 'webhook.test'
        | '*'
      )[];
      /** @description The collections whose `entry.*` events it receives; null for all */
      collections: string[] | null;
      enabled: boolean;
      description: string | null;
      /** @description Deliveries failed in a row; a succeeded one resets it */
      failureCount: number;
      /** @description Why the service disabled it, if it did */
      disabledReason: string | null;
      /** Format: date-time */
      lastDeliveryAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    WebhookDelivery: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      endpointId: string;
      /** @description The `webhook-id` header of every attempt */
      eventId: string;
      /** @enum {string} */
      event:
        | 'entry.created'
        | 'entry.updated'
        | 'entry.deleted'
        | 'entry.published'
        | 'entry.unpublished'
        | 'single.updated'
        | 'single.published'
        | 'media.created'
        | 'media.deleted'
        | 'user.created'
        | 'user.updated'
        | 'user.deleted'
        | 'user.deactivated'
        | 'user.activated'
        | 'user.password-changed'
        | 'schema.applied'
        | 'webhook.test';
      /** @enum {string} */
      status: 'pending' | 'succeeded' | 'failed';
      attempts: number;
      /** @description The last attempt's answer status; null without one */
      lastStatusCode: number | null;
      lastError: string | null;
      /** Format: date-time */
      nextAttemptAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      deliveredAt: string | null;
    };
    WebhookAttempt: {
      /** Format: date-time */
      at: string;
      statusCode?: number;
      error?: string;
      durationMs: number;
      /** @description The first 2 KiB of the answer */
      responseBody?: string;
    };
    WebhookDeliveryDetail: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      endpointId: string;
      /** @description The `webhook-id` header of every attempt */
      eventId: string;
      /** @enum {string} */
      event:
        | 'entry.created'
        | 'entry.updated'
        | 'entry.deleted'
        | 'entry.published'
        | 'entry.unpublished'
        | 'single.updated'
        | 'single.published'
        | 'media.created'
        | 'media.deleted'
        | 'user.created'
        | 'user.updated'
        | 'user.deleted'
        | 'user.deactivated'
        | 'user.activated'
        | 'user.password-changed'
        | 'schema.applied'
        | 'webhook.test';
      /** @enum {string} */
      status: 'pending' | 'succeeded' | 'failed';
      attempts: number;
      /** @description The last attempt's answer status; null without one */
      lastStatusCode: number | null;
      lastError: string | null;
      /** Format: date-time */
      nextAttemptAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      deliveredAt: string | null;
      attemptsLog: components['schemas']['WebhookAttempt'][];
      payload: {
        /** @enum {string} */
        type:
          | 'entry.created'
          | 'entry.updated'
          | 'entry.deleted'
          | 'entry.published'
          | 'entry.unpublished'
          | 'single.updated'
          | 'single.published'
          | 'media.created'
          | 'media.deleted'
          | 'user.created'
          | 'user.updated'
          | 'user.deleted'
          | 'user.deactivated'
          | 'user.activated'
          | 'user.password-changed'
          | 'schema.applied'
          | 'webhook.test';
        /** Format: date-time */
        timestamp: string;
        data: {
          [key: string]: components['schemas']['JsonValue'];
        };
      };
    };
    ApiKey: {
      /** Format: uuid */
      id: string;
      name: string;
      description: string | null;
      /** @enum {string} */
      type: 'read-only' | 'full-access' | 'role-based';
      /** Format: uuid */
      roleId: string | null;
      keyPrefix: string;
      /** Format: date-time */
      expiresAt: string | null;
      /** Format: date-time */
      revokedAt: string | null;
      /** Format: date-time */
      lastUsedAt: string | null;
      /** @enum {string} */
      status: 'active' | 'expired' | 'revoked';
      scopes: string[] | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    SessionUser: {
      /** Format: uuid */
      id: string;
      email: string;
      name: string;
      image: string | null;
      roleIds: string[];
    } & {
      [key: string]: unknown;
    };
    SessionAnswer: {
      message: string;
      user: components['schemas']['SessionUser'];
      token: string;
      exp: number;
    };
    LoginChallenge: {
      /** @constant */
      status: 'challenge';
      challengeType: string;
      pendingToken: string;
      uiHint: string | null;
    };
    Session: {
      /** Format: uuid */
      id: string;
      current: boolean;
      strategy: string;
      ip: string | null;
      userAgent: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      lastUsedAt: string;
      /** Format: date-time */
      expiresAt: string;
    };
    GeneralSettings: {
      siteName: string;
      siteDescription: string | null;
      /** Format: uri */
      siteUrl: string | null;
      /** Format: uuid */
      logoMediaId: string | null;
      timezone: string;
      dateFormat: string;
      /** @description A JSON object of the site’s own settings, as written (`{}` until set) */
      custom: {
        [key: string]: components['schemas']['JsonValue'];
      };
    };
    /** @description A field definition: one shape per field type (`type` tells which) */
    ContentField:
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'text';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'textarea';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'email';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'number';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: number | null;
          options?: null;
          min?: number | null;
          max?: number | null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'checkbox';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: boolean | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'date';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'select';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: (string | null) | string[];
          options: (
            | string
            | {
                label: string;
                value: string;
              }
          )[];
          min?: null;
          max?: null;
          hasMany?: boolean;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'json';
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          index?: boolean;
          defaultValue?: components['schemas']['JsonValue'];
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'richText';
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          /** @constant */
          index?: false;
          /** @description A Lexical document */
          defaultValue?: Record<string, never> | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'relationship';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          hasMany?: boolean;
          relationTo: string;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'upload';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo: string;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'component';
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          /** @constant */
          index?: false;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup: string;
          repeatable?: boolean;
        };
    /** @description A field definition: one shape per field type (`type` tells which) */
    EnrichedContentField:
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'text';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'textarea';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'email';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'number';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: number | null;
          options?: null;
          min?: number | null;
          max?: number | null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'checkbox';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: boolean | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'date';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'select';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: (string | null) | string[];
          options: (
            | string
            | {
                label: string;
                value: string;
              }
          )[];
          min?: null;
          max?: null;
          hasMany?: boolean;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'json';
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          index?: boolean;
          defaultValue?: components['schemas']['JsonValue'];
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'richText';
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          /** @constant */
          index?: false;
          /** @description A Lexical document */
          defaultValue?: Record<string, never> | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'relationship';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          hasMany?: boolean;
          relationTo: string;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'upload';
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo: string;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          id: string;
          name: string;
          /** @constant */
          type: 'component';
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          /** @constant */
          index?: false;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup: string;
          repeatable?: boolean;
          fields: components['schemas']['EnrichedContentField'][];
        };
    /** @description `true`: open to anyone, visitors included (reads: published entries only); `"function"`: a rule function of the configuration file decides per request; `false`: not open (the `<action>-<slug>` permission decides, or a `false` rule of the configuration file closes it) */
    AccessDecision: boolean | 'function';
    CollectionDefinition: {
      /** Format: uuid */
      id: string;
      slug: string;
      labels: {
        singular: string;
        plural: string;
      };
      fields: components['schemas']['ContentField'][];
      drafts: boolean;
      /** @description Who may do each action besides the holders of its permission */
      access: {
        read: components['schemas']['AccessDecision'];
        create: components['schemas']['AccessDecision'];
        update: components['schemas']['AccessDecision'];
        delete: components['schemas']['AccessDecision'];
      };
      /** @description `false`: no versions are kept; `{ max }`: the newest `max` versions of each entry are kept */
      versions:
        | false
        | {
            max: number;
          };
      /**
       * @description code: the configuration file; ui: created over REST; system: built in (media)
       * @enum {string}
       */
      source: 'code' | 'ui' | 'system';
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    SingleDefinition: {
      /** Format: uuid */
      id: string;
      slug: string;
      label: string;
      fields: components['schemas']['ContentField'][];
      drafts: boolean;
      /** @description Who may do each action besides the holders of its permission */
      access: {
        read: components['schemas']['AccessDecision'];
        update: components['schemas']['AccessDecision'];
      };
      /** @description `false`: no versions are kept; `{ max }`: the newest `max` versions of each entry are kept */
      versions:
        | false
        | {
            max: number;
          };
      /**
       * @description code: the configuration file; ui: created over REST; system: built in (media)
       * @enum {string}
       */
      source: 'code' | 'ui' | 'system';
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    FieldGroupDefinition: {
      /** Format: uuid */
      id: string;
      slug: string;
      label: string;
      fields: components['schemas']['ContentField'][];
      /**
       * @description code: the configuration file; ui: created over REST; system: built in (media)
       * @enum {string}
       */
      source: 'code' | 'ui' | 'system';
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    EnrichedCollectionDefinition: {
      /** Format: uuid */
      id: string;
      slug: string;
      labels: {
        singular: string;
        plural: string;
      };
      fields: components['schemas']['EnrichedContentField'][];
      drafts: boolean;
      /** @description Who may do each action besides the holders of its permission */
      access: {
        read: components['schemas']['AccessDecision'];
        create: components['schemas']['AccessDecision'];
        update: components['schemas']['AccessDecision'];
        delete: components['schemas']['AccessDecision'];
      };
      /** @description `false`: no versions are kept; `{ max }`: the newest `max` versions of each entry are kept */
      versions:
        | false
        | {
            max: number;
          };
      /**
       * @description code: the configuration file; ui: created over REST; system: built in (media)
       * @enum {string}
       */
      source: 'code' | 'ui' | 'system';
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    EnrichedSingleDefinition: {
      /** Format: uuid */
      id: string;
      slug: string;
      label: string;
      fields: components['schemas']['EnrichedContentField'][];
      drafts: boolean;
      /** @description Who may do each action besides the holders of its permission */
      access: {
        read: components['schemas']['AccessDecision'];
        update: components['schemas']['AccessDecision'];
      };
      /** @description `false`: no versions are kept; `{ max }`: the newest `max` versions of each entry are kept */
      versions:
        | false
        | {
            max: number;
          };
      /**
       * @description code: the configuration file; ui: created over REST; system: built in (media)
       * @enum {string}
       */
      source: 'code' | 'ui' | 'system';
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    /** @description A field added, dropped, renamed or altered; drafts switched on or off as an alter of `status` */
    SchemaChange:
      | {
          /** @constant */
          kind: 'add';
          field: string;
          to: components['schemas']['ContentField'];
          /** @constant */
          destructive: false;
        }
      | {
          /** @constant */
          kind: 'drop';
          field: string;
          from: components['schemas']['ContentField'];
          /** @constant */
          destructive: true;
        }
      | {
          /** @constant */
          kind: 'rename';
          field: string;
          from: string;
          to: string;
          /** @constant */
          destructive: false;
        }
      | {
          /** @constant */
          kind: 'alter';
          field: string;
          from: {
            /** @enum {string} */
            type?:
              | 'text'
              | 'textarea'
              | 'email'
              | 'number'
              | 'checkbox'
              | 'date'
              | 'select'
              | 'json'
              | 'richText'
              | 'relationship'
              | 'upload'
              | 'component';
            hasMany?: boolean;
            options?:
              | (
                  | string
                  | {
                      label: string;
                      value: string;
                    }
                )[]
              | null;
            min?: number | null;
            max?: number | null;
            relationTo?: string | null;
            fieldGroup?: string | null;
            repeatable?: boolean;
            required?: boolean;
            unique?: boolean;
            index?: boolean;
            defaultValue?: components['schemas']['JsonValue'];
            label?: string | null;
          };
          to: {
            /** @enum {string} */
            type?:
              | 'text'
              | 'textarea'
              | 'email'
              | 'number'
              | 'checkbox'
              | 'date'
              | 'select'
              | 'json'
              | 'richText'
              | 'relationship'
              | 'upload'
              | 'component';
            hasMany?: boolean;
            options?:
              | (
                  | string
                  | {
                      label: string;
                      value: string;
                    }
                )[]
              | null;
            min?: number | null;
            max?: number | null;
            relationTo?: string | null;
            fieldGroup?: string | null;
            repeatable?: boolean;
            required?: boolean;
            unique?: boolean;
            index?: boolean;
            defaultValue?: components['schemas']['JsonValue'];
            label?: string | null;
          };
          destructive: boolean;
        }
      | {
          /** @constant */
          kind: 'alter';
          /** @constant */
          field: 'status';
          from: {
            drafts: boolean;
          };
          to: {
            drafts: boolean;
          };
          destructive: boolean;
        };
    SchemaPreview: {
      changes: components['schemas']['SchemaChange'][];
      destructive: boolean;
    };
    BulkResult: {
      message: string;
      items: {
        /** Format: uuid */
        id: string;
      }[];
      errors: {
        /** @description The id as sent (it may be no id at all) */
        id: string;
        /** @enum {string} */
        code: 'NOT_FOUND' | 'VALIDATION_ERROR';
        message: string;
      }[];
    };
    /** @description A field definition: one shape per field type (`type` tells which). Besides the schema: a number field's `min` is at most its `max`, and its `defaultValue` lies between them; a select's option values are distinct, and its `defaultValue` is among them */
    ContentFieldInput:
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'text';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          /** @description At most 1000 characters once trimmed; blank or null: no default */
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'textarea';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          /** @description At most 10000 characters once trimmed; blank or null: no default */
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'email';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          /** @description An email address once trimmed (at most 320 characters); blank or null: no default */
          defaultValue?: ((string & (unknown & unknown)) | null) & (unknown & unknown);
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'number';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          /** @description Within the field's `min` and `max` when given */
          defaultValue?: number | null;
          options?: null;
          min?: number | null;
          max?: number | null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'checkbox';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: (boolean | null) | string;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'date';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          /** @description `YYYY-MM-DD`, or an ISO 8601 date-time with `Z` or an offset, a real calendar date; blank or null: no default */
          defaultValue?: string | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'select';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: (string | null) | (string[] | null);
          options: (
            | string
            | {
                /** @description 1 to 200 characters once trimmed */
                label: string;
                /** @description 1 to 200 characters, no leading or trailing whitespace */
                value: string;
              }
          )[];
          min?: null;
          max?: null;
          hasMany?: boolean;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'json';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          index?: boolean;
          /** @description Any JSON value, at most 32 levels deep and 16384 characters serialised */
          defaultValue?: components['schemas']['JsonValue'];
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'richText';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          /** @constant */
          index?: false;
          /** @description A Lexical document (a JSON object), at most 32 levels deep and 16384 characters serialised */
          defaultValue?: Record<string, never> | null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'relationship';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          hasMany?: boolean;
          /** @description An existing collection (a collection may name itself) */
          relationTo: string;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'upload';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          unique?: boolean;
          index?: boolean;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          /** @description An existing collection (a collection may name itself) */
          relationTo: string;
          fieldGroup?: null;
          /** @constant */
          repeatable?: false;
        }
      | {
          /** @description The field's stable id, as answered: keeps a renamed field's column and values. Without it a field is paired with the stored field of the same name, else it is new */
          id?: string;
          /** @description Not one of id, createdAt, updatedAt, status, created_at, updated_at, and, or, constructor, prototype, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString, toString, valueOf (in any letter case) */
          name: string;
          /** @constant */
          type: 'component';
          /** @description 1 to 200 characters once trimmed */
          label?: string;
          required?: boolean;
          /** @constant */
          unique?: false;
          /** @constant */
          index?: false;
          defaultValue?: null;
          options?: null;
          min?: null;
          max?: null;
          /** @constant */
          hasMany?: false;
          relationTo?: null;
          /** @description An existing field group (not the group itself) */
          fieldGroup: string;
          repeatable?: boolean;
        };
    CollectionInput: {
      /** @description Lowercase letters, digits and `-` (no `--`), not a word the API reserves; collections and singles share one slug space, field groups have their own (a taken slug is `409`) */
      slug: string;
      labels?: {
        /** @description 1 to 200 characters once trimmed */
        singular: string;
        /** @description 1 to 200 characters once trimmed */
        plural: string;
      };
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields?: components['schemas']['ContentFieldInput'][];
      /** @description Draft/Published for the entries; turning it off publishes every draft (destructive) */
      drafts?: boolean;
      /** @description Open `read` or `create` to anyone, visitors included (`read`: published entries only, never drafts); `false` leaves it to the permission. Other actions stay with their permissions (sending one is `400`). On `PATCH`, keys left out keep their value */
      access?: {
        read?: boolean;
        create?: boolean;
      };
      /** @description Keep a version of an entry at every write that changes it: `true` keeps the newest 50, `{ max }` the newest `max`; `false` (the default) keeps none. Changes no table */
      versions?:
        | boolean
        | {
            max: number;
          };
    };
    CollectionUpdate: {
      labels?: {
        /** @description 1 to 200 characters once trimmed */
        singular: string;
        /** @description 1 to 200 characters once trimmed */
        plural: string;
      };
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields?: components['schemas']['ContentFieldInput'][];
      /** @description Draft/Published for the entries; turning it off publishes every draft (destructive) */
      drafts?: boolean;
      /** @description Open `read` or `create` to anyone, visitors included (`read`: published entries only, never drafts); `false` leaves it to the permission. Other actions stay with their permissions (sending one is `400`). On `PATCH`, keys left out keep their value */
      access?: {
        read?: boolean;
        create?: boolean;
      };
      /** @description Keep a version of an entry at every write that changes it: `true` keeps the newest 50, `{ max }` the newest `max`; `false` (the default) keeps none. Changes no table */
      versions?:
        | boolean
        | {
            max: number;
          };
      /** @description true to apply changes that may delete stored values; without it they are refused (`409`, with the planned changes) */
      confirmDestructive?: boolean;
    };
    SingleInput: {
      /** @description Lowercase letters, digits and `-` (no `--`), not a word the API reserves; collections and singles share one slug space, field groups have their own (a taken slug is `409`) */
      slug: string;
      /** @description 1 to 200 characters once trimmed */
      label?: string;
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields?: components['schemas']['ContentFieldInput'][];
      /** @description Draft/Published for the entries; turning it off publishes every draft (destructive) */
      drafts?: boolean;
      /** @description Open `read` to anyone, visitors included (`read`: published entries only, never drafts); `false` leaves it to the permission. Other actions stay with their permissions (sending one is `400`). On `PATCH`, keys left out keep their value */
      access?: {
        read?: boolean;
      };
      /** @description Keep a version of an entry at every write that changes it: `true` keeps the newest 50, `{ max }` the newest `max`; `false` (the default) keeps none. Changes no table */
      versions?:
        | boolean
        | {
            max: number;
          };
    };
    SingleUpdate: {
      /** @description 1 to 200 characters once trimmed */
      label?: string;
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields?: components['schemas']['ContentFieldInput'][];
      /** @description Draft/Published for the entries; turning it off publishes every draft (destructive) */
      drafts?: boolean;
      /** @description Open `read` to anyone, visitors included (`read`: published entries only, never drafts); `false` leaves it to the permission. Other actions stay with their permissions (sending one is `400`). On `PATCH`, keys left out keep their value */
      access?: {
        read?: boolean;
      };
      /** @description Keep a version of an entry at every write that changes it: `true` keeps the newest 50, `{ max }` the newest `max`; `false` (the default) keeps none. Changes no table */
      versions?:
        | boolean
        | {
            max: number;
          };
      /** @description true to apply changes that may delete stored values; without it they are refused (`409`, with the planned changes) */
      confirmDestructive?: boolean;
    };
    FieldGroupInput: {
      /** @description Lowercase letters, digits and `-` (no `--`), not a word the API reserves; collections and singles share one slug space, field groups have their own (a taken slug is `409`) */
      slug: string;
      /** @description 1 to 200 characters once trimmed */
      label?: string;
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields?: components['schemas']['ContentFieldInput'][];
    };
    FieldGroupUpdate: {
      /** @description 1 to 200 characters once trimmed */
      label?: string;
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields?: components['schemas']['ContentFieldInput'][];
      /** @description true to apply changes that may delete stored values; without it they are refused (`409`, with the planned changes) */
      confirmDestructive?: boolean;
    };
    SchemaInput: {
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields: components['schemas']['ContentFieldInput'][];
      /** @description Draft/Published for the entries; turning it off publishes every draft (destructive) */
      drafts?: boolean;
      /** @description Keep a version of an entry at every write that changes it: `true` keeps the newest 50, `{ max }` the newest `max`; `false` (the default) keeps none. Changes no table */
      versions?:
        | boolean
        | {
            max: number;
          };
      /** @description true to apply changes that may delete stored values; without it they are refused (`409`, with the planned changes) */
      confirmDestructive?: boolean;
    };
    FieldGroupSchemaInput: {
      /** @description Every field of the definition, in order: a stored field left out is dropped. Names are unique ignoring case, ids unique. Field groups embedded by component fields may not form a cycle, and the definition may expand to at most 5 levels, 1000 fields and 2097152 characters of field definitions (else `409`) */
      fields: components['schemas']['ContentFieldInput'][];
      /** @description true to apply changes that may delete stored values; without it they are refused (`409`, with the planned changes) */
      confirmDestructive?: boolean;
    };
    BulkDeleteInput: {
      /** @description Entry ids; one that names no entry (or is no id) is reported in `errors` as `NOT_FOUND` */
      ids: string[];
    };
    BulkUpdateInput: {
      /** @description Entry ids; one that names no entry (or is no id) is reported in `errors` as `NOT_FOUND` */
      ids: string[];
      /** @description The fields to set, as the body of `PATCH /collections/{slug}/entries/{id}` (the `Collection_<slug>` of the path's collection, any of its keys); checked once. An entry that would then break a required field is left unchanged and reported in `errors` */
      data: components['schemas']['MediaEntryUpdate'];
    };
    UpdateWhereInput: {
      /** @description The entries to update, as the `where` of the entry list; `{}` for every entry */
      where: components['schemas']['Where'];
      /** @description The fields to set, as the body of `PATCH /collections/{slug}/entries/{id}` (the `Collection_<slug>` of the path's collection, any of its keys); checked once. An entry that would then break a required field is left unchanged and reported in `errors` */
      data: components['schemas']['MediaEntryUpdate'];
      /**
       * @description Collections with drafts only (else `400`): the entries `where` reaches. Default `all` for a caller who may read drafts, else `published`; `draft` and `all` need that permission
       * @enum {string}
       */
      status?: 'published' | 'draft' | 'all';
    };
    WhereOperators: {
      /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
      equals?: string | number | boolean | null;
      /** @description Not equal to the value; `null`: the field is set */
      not_equals?: string | number | boolean | null;
      /** @description Greater than the value */
      greater_than?: string | number | boolean;
      /** @description Greater than or equal to the value */
      greater_than_equal?: string | number | boolean;
      /** @description Less than the value */
      less_than?: string | number | boolean;
      /** @description Less than or equal to the value */
      less_than_equal?: string | number | boolean;
      /** @description Matches the case-sensitive pattern (`%` any text, `_` one character, `\` escapes) */
      like?: string;
      /** @description Contains the text, ignoring case */
      contains?: string;
      /** @description Contains the text, ignoring case (same as `contains`) */
      search?: string;
      /** @description One of the values (a list, or the values separated by commas) */
      in?: (string | number | boolean)[] | string;
      /** @description None of the values (a list, or the values separated by commas) */
      not_in?: (string | number | boolean)[] | string;
      /** @description `true`: the field is set; `false`: it is empty */
      exists?: boolean;
    };
    /** @description A filter: each field names its operators (`{ "title": { "contains": "news" } }`); several fields or operators must all hold; `and` / `or` group conditions. At most 50 conditions. Sent as JSON (`where=<URL-encoded JSON>`) or in brackets (`where[title][contains]=news`). Which operators a field takes depends on its type: see the collection's own `<Name>Where`. */
    Where: {
      /** @description Conditions of which all must hold (groups nest at most 5 levels) */
      and?: components['schemas']['Where'][];
      /** @description Conditions of which at least one must hold (groups nest at most 5 levels) */
      or?: components['schemas']['Where'][];
    } & {
      [key: string]:
        | components['schemas']['WhereOperators']
        | components['schemas']['Where'][]
        | components['schemas']['Where'][];
    };
    EntrySchedule: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      entryId: string;
      /** @enum {string} */
      action: 'publish' | 'unpublish';
      /** Format: date-time */
      at: string;
      /** @enum {string} */
      status: 'pending' | 'done' | 'failed' | 'cancelled';
      createdBy: {
        /** Format: uuid */
        id: string;
        name: string;
      } | null;
      /** @description Why a failed schedule failed */
      error: string | null;
    };
    EntryVersion: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      entryId: string;
      /** @description 1, 2, ... per entry; never reused */
      number: number;
      /** @description `draft` or `published` (null without drafts) */
      status: string | null;
      /** @enum {string} */
      event: 'create' | 'update' | 'publish' | 'unpublish' | 'restore';
      /** @description Every field of the entry, null when empty */
      data: Record<string, never>;
      createdBy: {
        /** Format: uuid */
        id: string;
        name: string;
      } | null;
      /** Format: date-time */
      createdAt: string;
    };
    EntryVersionCompared: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      entryId: string;
      /** @description 1, 2, ... per entry; never reused */
      number: number;
      /** @description `draft` or `published` (null without drafts) */
      status: string | null;
      /** @enum {string} */
      event: 'create' | 'update' | 'publish' | 'unpublish' | 'restore';
      /** @description Every field of the entry, null when empty */
      data: Record<string, never>;
      createdBy: {
        /** Format: uuid */
        id: string;
        name: string;
      } | null;
      /** Format: date-time */
      createdAt: string;
      /** @description With `compare`: the fields that differ; `from` is this version, `to` the compared one */
      changes?: {
        field: string;
        /** @description The field's value (null when empty) */
        from: string | number | boolean | Record<string, never> | unknown[] | null;
        /** @description The field's value (null when empty) */
        to: string | number | boolean | Record<string, never> | unknown[] | null;
      }[];
    };
    DashboardStats: {
      collections: {
        slug: string;
        label: string;
        total: number;
        published: number;
        drafts: number | null;
      }[];
      users: {
        total: number;
        active: number;
      } | null;
      media: {
        total: number;
        bytes: number;
      } | null;
    };
    RecentEntry: {
      collection: string;
      /** Format: uuid */
      id: string;
      title: string | null;
      /** @enum {string|null} */
      status: 'published' | 'draft' | null;
      /** Format: date-time */
      updatedAt: string;
    };
    ActivityItem: {
      /** @description The audit row id (a bigint, as text) */
      id: string;
      event: string;
      actor: {
        /** Format: uuid */
        id: string;
        name: string;
      } | null;
      target: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    ImageSize: {
      /** Format: uuid */
      id: string;
      name: string;
      width: number | null;
      height: number | null;
      /** @enum {string} */
      fit: 'cover' | 'contain' | 'inside';
      /** @enum {string|null} */
      format: 'webp' | 'jpeg' | 'png' | 'avif' | null;
      quality: number | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    ImageRegeneration: {
      /** Format: uuid */
      id: string | null;
      /** @enum {string} */
      status: 'idle' | 'queued' | 'running' | 'done' | 'failed';
      total: number;
      processed: number;
      failed: number;
      error: string | null;
      /** Format: date-time */
      createdAt: string | null;
      /** Format: date-time */
      startedAt: string | null;
      /** Format: date-time */
      finishedAt: string | null;
    };
    /** Media */
    MediaEntry: {
      /** Format: uuid */
      readonly id: string;
      readonly filename?: string;
      readonly mimeType?: string;
      readonly filesize?: number;
      readonly width?: number | null;
      readonly height?: number | null;
      alt?: string | null;
      caption?: string | null;
      /** @description The image variants, by image size name (none for a file that is no raster image) */
      readonly sizes?: {
        [key: string]: {
          url: string;
          width: number;
          height: number;
          mimeType: string;
          filesize: number;
        };
      };
      /** @description Where the file is served (`/admin/api/media/{id}/{filename}`) */
      readonly url?: string;
      /** Format: date-time */
      readonly createdAt: string;
      /** Format: date-time */
      readonly updatedAt: string;
    };
    /**
     * Media (create)
     * @description A new Media
     */
    MediaEntryInput: {
      alt?: string | null;
      caption?: string | null;
    };
    /**
     * Media (write)
     * @description The fields of the Media to change; the others keep their values
     */
    MediaEntryUpdate: {
      alt?: string | null;
      caption?: string | null;
    };
    /** @description A filter: each field names its operators (`{ "title": { "contains": "news" } }`); several fields or operators must all hold; `and` / `or` group conditions. At most 50 conditions. Sent as JSON (`where=<URL-encoded JSON>`) or in brackets (`where[title][contains]=news`). */
    MediaWhere: {
      id?: {
        /**
         * Format: uuid
         * @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty
         */
        equals?: string | null;
        /**
         * Format: uuid
         * @description Not equal to the value; `null`: the field is set
         */
        not_equals?: string | null;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: string[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: string[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      createdAt?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: string | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: string | null;
        /** @description Greater than the value */
        greater_than?: string;
        /** @description Greater than or equal to the value */
        greater_than_equal?: string;
        /** @description Less than the value */
        less_than?: string;
        /** @description Less than or equal to the value */
        less_than_equal?: string;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: string[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: string[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      updatedAt?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: string | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: string | null;
        /** @description Greater than the value */
        greater_than?: string;
        /** @description Greater than or equal to the value */
        greater_than_equal?: string;
        /** @description Less than the value */
        less_than?: string;
        /** @description Less than or equal to the value */
        less_than_equal?: string;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: string[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: string[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      filename?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: string | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: string | null;
        /** @description Greater than the value */
        greater_than?: string;
        /** @description Greater than or equal to the value */
        greater_than_equal?: string;
        /** @description Less than the value */
        less_than?: string;
        /** @description Less than or equal to the value */
        less_than_equal?: string;
        /** @description Matches the case-sensitive pattern (`%` any text, `_` one character, `\` escapes) */
        like?: string;
        /** @description Contains the text, ignoring case */
        contains?: string;
        /** @description Contains the text, ignoring case (same as `contains`) */
        search?: string;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: string[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: string[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      mimeType?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: string | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: string | null;
        /** @description Greater than the value */
        greater_than?: string;
        /** @description Greater than or equal to the value */
        greater_than_equal?: string;
        /** @description Less than the value */
        less_than?: string;
        /** @description Less than or equal to the value */
        less_than_equal?: string;
        /** @description Matches the case-sensitive pattern (`%` any text, `_` one character, `\` escapes) */
        like?: string;
        /** @description Contains the text, ignoring case */
        contains?: string;
        /** @description Contains the text, ignoring case (same as `contains`) */
        search?: string;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: string[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: string[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      filesize?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: number | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: number | null;
        /** @description Greater than the value */
        greater_than?: number;
        /** @description Greater than or equal to the value */
        greater_than_equal?: number;
        /** @description Less than the value */
        less_than?: number;
        /** @description Less than or equal to the value */
        less_than_equal?: number;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: number[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: number[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      width?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: number | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: number | null;
        /** @description Greater than the value */
        greater_than?: number;
        /** @description Greater than or equal to the value */
        greater_than_equal?: number;
        /** @description Less than the value */
        less_than?: number;
        /** @description Less than or equal to the value */
        less_than_equal?: number;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: number[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: number[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      height?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: number | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: number | null;
        /** @description Greater than the value */
        greater_than?: number;
        /** @description Greater than or equal to the value */
        greater_than_equal?: number;
        /** @description Less than the value */
        less_than?: number;
        /** @description Less than or equal to the value */
        less_than_equal?: number;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: number[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: number[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      alt?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: string | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: string | null;
        /** @description Greater than the value */
        greater_than?: string;
        /** @description Greater than or equal to the value */
        greater_than_equal?: string;
        /** @description Less than the value */
        less_than?: string;
        /** @description Less than or equal to the value */
        less_than_equal?: string;
        /** @description Matches the case-sensitive pattern (`%` any text, `_` one character, `\` escapes) */
        like?: string;
        /** @description Contains the text, ignoring case */
        contains?: string;
        /** @description Contains the text, ignoring case (same as `contains`) */
        search?: string;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: string[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: string[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      caption?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: string | null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: string | null;
        /** @description Greater than the value */
        greater_than?: string;
        /** @description Greater than or equal to the value */
        greater_than_equal?: string;
        /** @description Less than the value */
        less_than?: string;
        /** @description Less than or equal to the value */
        less_than_equal?: string;
        /** @description Matches the case-sensitive pattern (`%` any text, `_` one character, `\` escapes) */
        like?: string;
        /** @description Contains the text, ignoring case */
        contains?: string;
        /** @description Contains the text, ignoring case (same as `contains`) */
        search?: string;
        /** @description One of the values (a list, or the values separated by commas) */
        in?: string[] | string;
        /** @description None of the values (a list, or the values separated by commas) */
        not_in?: string[] | string;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      sizes?: {
        /** @description Equal to the value (for a many-valued field: holds it); `null`: the field is empty */
        equals?: null;
        /** @description Not equal to the value; `null`: the field is set */
        not_equals?: null;
        /** @description `true`: the field is set; `false`: it is empty */
        exists?: boolean;
      };
      /** @description Conditions of which all must hold (groups nest at most 5 levels) */
      and?: components['schemas']['MediaWhere'][];
      /** @description Conditions of which at least one must hold (groups nest at most 5 levels) */
      or?: components['schemas']['MediaWhere'][];
    };
  };
  responses: {
    /** @description The body, the query or a path parameter is not valid: `error.data.errors` lists each problem */
    Problem400: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Sign in first, or the credentials are wrong or expired (`AUTH_REQUIRED`, `AUTH_INVALID_CREDENTIALS`...) */
    Problem401: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Signed in, but not allowed (`FORBIDDEN`), or the CSRF header is missing or wrong (`CSRF_FAILED`) */
    Problem403: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description No such resource, or no such route (`NOT_FOUND`) */
    Problem404: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description The change conflicts with the current state (`CONFLICT`, `DUPLICATE`) */
    Problem409: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `If-Match` names a version of the entry that is no longer current (`PRECONDITION_FAILED`) */
    Problem412: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description The body is larger than the service accepts (`PAYLOAD_TOO_LARGE`) */
    Problem413: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description The body is not in a content type the route takes (`UNSUPPORTED_MEDIA_TYPE`): send `Content-Type: application/json` */
    Problem415: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description The body is well-formed but cannot be applied (`INVALID_INPUT`) */
    Problem422: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description A rate limit was reached (`RATE_LIMITED`): retry after `Retry-After` seconds */
    Problem429: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'Retry-After': components['headers']['Retry-After'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description The service failed (`INTERNAL_ERROR`, `DATABASE_ERROR`): retry, then report the `requestId` */
    Problem500: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description A dependency is unavailable (`SERVICE_UNAVAILABLE`): retry after `Retry-After` seconds */
    Problem503: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id'];
        'Retry-After': components['headers']['Retry-After'];
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The id of this request (also `error.requestId` of a failure): quote it when reporting a problem */
    'X-Request-Id': string;
    /** @description The requests the budget allows per window (on API key answers and the sign-in routes) */
    'X-RateLimit-Limit': number;
    /** @description The requests left in the current window */
    'X-RateLimit-Remaining': number;
    /** @description Seconds until the window restarts */
    'X-RateLimit-Reset': number;
    /** @description Seconds to wait before retrying */
    'Retry-After': number;
    /** @description How the answer may be cached */
    'Cache-Control': string;
    /** @description The version of the answer, for `If-None-Match` */
    ETag: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listApiKeys: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?:
          | 'name'
          | '-name'
          | 'createdAt'
          | '-createdAt'
          | 'lastUsedAt'
          | '-lastUsedAt'
          | 'expiresAt'
          | '-expiresAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ApiKey'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateApiKeyDto'];
      };
    };
    responses: {
      /** @description The key itself is in `key`, shown this once */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ApiKey'];
            key: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKey'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ApiKey'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateApiKeyDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ApiKey'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  rotateApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RotateApiKeyDto'];
      };
    };
    responses: {
      /** @description The new key is in `key`, shown this once */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ApiKey'];
            key: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listAuditLog: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'createdAt' | '-createdAt';
        /** @description Only these events: one name (`login-failed`), or up to 50 separated by commas */
        event?: string;
        /** @description Only what this user did */
        actorId?: string;
        /** @description Only entries at or after this time (ISO 8601; a date alone is its midnight UTC) */
        from?: string;
        /** @description Only entries at or before this time (ISO 8601; a date alone is its midnight UTC) */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['AuditEntry'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  exportAuditLog: {
    parameters: {
      query?: {
        /** @description Only these events: one name (`login-failed`), or up to 50 separated by commas */
        event?: string;
        /** @description Only what this user did */
        actorId?: string;
        /** @description Only entries at or after this time (ISO 8601; a date alone is its midnight UTC) */
        from?: string;
        /** @description Only entries at or before this time (ISO 8601; a date alone is its midnight UTC) */
        to?: string;
        /** @description The file format */
        format?: 'csv';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The filtered audit log, newest first: a header row, then a row per entry */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/csv': unknown;
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  acceptInvite: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AcceptInviteDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  resolveChallenge: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ResolveChallengeDto'];
      };
    };
    responses: {
      /** @description Signed in, or (`continues`) the next step */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** @constant */
                ok: true;
                message: string;
                user: components['schemas']['SessionUser'];
                token: string;
                exp: number;
              }
            | {
                /** @constant */
                ok: true;
                /** @constant */
                continues: true;
                /** @constant */
                status: 'challenge';
                challengeType: string;
                pendingToken: string;
                uiHint: string | null;
              };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  changePassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ChangePasswordDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getCsrfToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            csrfToken: string;
          };
        };
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  requestPasswordReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EmailOnlyDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  login: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LoginDto'];
      };
    };
    responses: {
      /** @description Signed in, or a step to answer first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['SessionAnswer'] | components['schemas']['LoginChallenge'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  logout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getPendingSignIn: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The outstanding step */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            challengeType: string;
            uiHint: string | null;
            attemptsRemaining: number;
            /** Format: date-time */
            expiresAt: string;
          };
        };
      };
      /** @description No sign-in is pending */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  reauthenticate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReauthenticateDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            /** Format: date-time */
            until: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  refreshSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SessionAnswer'];
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RegisterDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  resetPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ResetPasswordDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            user: components['schemas']['SessionUser'];
            exp: number | null;
          };
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listSessions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Session'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  endOtherSessions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            ended: number;
          };
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  endSession: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  setInitialPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SetInitialPasswordDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SessionAnswer'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  completeSetup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SetupDto'];
      };
    };
    responses: {
      /** @description Signed in, or (with auth.mfa) the second-factor enrolment first */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['SessionAnswer'] | components['schemas']['LoginChallenge'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSetupStatus: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            completed: boolean;
          };
        };
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getLoginUi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            providers: {
              strategy: string;
              label: string;
              href?: string;
              component?: string;
            }[];
            challengeViews: {
              [key: string]: Record<string, never>;
            };
            slots: {
              [key: string]: components['schemas']['JsonValue'];
            };
          };
        };
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  verifyEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TokenDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  resendVerificationEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EmailOnlyDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listCollections: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'slug' | '-slug' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['CollectionDefinition'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createCollection: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description A collection definition: its slug, labels, drafts, fields, access and versions */
    requestBody: {
      content: {
        'application/json': components['schemas']['CollectionInput'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['CollectionDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getCollection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CollectionDefinition'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteCollection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['CollectionDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateCollection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    /** @description The keys to change; a fields or drafts change is applied */
    requestBody: {
      content: {
        'application/json': components['schemas']['CollectionUpdate'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['CollectionDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listEntries: {
    parameters: {
      query?: {
        /** @description A filter: each field names its operators (`{ "title": { "contains": "news" } }`); several fields or operators must all hold; `and` / `or` group conditions. At most 50 conditions. Sent as JSON (`where=<URL-encoded JSON>`) or in brackets (`where[title][contains]=news`). */
        where?: components['schemas']['Where'];
        /** @description Fields to sort by, separated by commas (at most 10), `-` first for descending; default `-createdAt` */
        sort?: string;
        /** @description Entries per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Fields to answer, separated by commas (`id` and the timestamps always come) */
        select?: string;
        /** @description How many levels of related entries to include in place of their ids */
        depth?: number;
        /** @description Rich text as Lexical JSON, as HTML, or both */
        richTextFormat?: 'json' | 'html' | 'both';
        /** @description Collections with drafts only (elsewhere a 400): published entries, drafts, or both; drafts need the update access */
        status?: 'published' | 'draft' | 'all';
      };
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of entries */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['MediaEntry'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createEntry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MediaEntryInput'];
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The file
           */
          file: string;
          /** @description Text describing the image, for screen readers */
          alt?: string;
          caption?: string;
        };
      };
    };
    responses: {
      /** @description The entry made */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['MediaEntry'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateEntriesWhere: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    /** @description Update every entry `where` matches (read access needed) */
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWhereInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkResult'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEntry: {
    parameters: {
      query?: {
        /** @description How many levels of related entries to include in place of their ids */
        depth?: number;
        /** @description Fields to answer, separated by commas (`id` and the timestamps always come) */
        select?: string;
        /** @description Rich text as Lexical JSON, as HTML, or both */
        richTextFormat?: 'json' | 'html' | 'both';
        /** @description Collections with drafts only (elsewhere a 400): published entries, drafts, or both; drafts need the update access */
        status?: 'published' | 'draft' | 'all';
        /** @description A preview token (as the `X-Preview-Token` header): reads the entry it names, drafts included, with no other credentials */
        preview?: string;
      };
      header?: {
        /** @description A preview token: reads the entry it names, drafts included, with no other credentials (as the query parameter `preview`) */
        'X-Preview-Token'?: string;
        /** @description The `ETag` of the entry as the client holds it: 304 while it is still current */
        'If-None-Match'?: string;
      };
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entry */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MediaEntry'];
        };
      };
      /** @description Not modified: `If-None-Match` named the current `ETag` */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteEntry: {
    parameters: {
      query?: never;
      header?: {
        /** @description The `ETag` of the entry the change was made to: 412 when the entry changed since */
        'If-Match'?: string;
      };
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entry deleted */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item:
              | components['schemas']['MediaEntry']
              | {
                  /** Format: uuid */
                  id: string;
                };
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      412: components['responses']['Problem412'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateEntry: {
    parameters: {
      query?: never;
      header?: {
        /** @description The `ETag` of the entry the change was made to: 412 when the entry changed since */
        'If-Match'?: string;
      };
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MediaEntryUpdate'];
      };
    };
    responses: {
      /** @description The entry as it is now */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item:
              | components['schemas']['MediaEntry']
              | {
                  /** Format: uuid */
                  id: string;
                };
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      412: components['responses']['Problem412'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  duplicateEntry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The copy made */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item:
              | components['schemas']['MediaEntry']
              | {
                  /** Format: uuid */
                  id: string;
                };
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createEntryPreviewToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PreviewTokenDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Present it as `X-Preview-Token` or as the query parameter `preview` */
            token: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description The definition's preview page, when it has one, with the token in it */
            url?: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listEntrySchedules: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
      };
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['EntrySchedule'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  scheduleEntryChange: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          action: 'publish' | 'unpublish';
          /**
           * Format: date-time
           * @description When: in the future, within a year
           */
          at: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EntrySchedule'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  cancelEntrySchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EntrySchedule'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listEntryVersions: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
      };
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['EntryVersion'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEntryVersion: {
    parameters: {
      query?: {
        /** @description Another version id of the entry, or `current` */
        compare?: string;
      };
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EntryVersionCompared'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  restoreEntryVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
        id: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Also publish a draft (needs the publish permission) */
          publish?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            /** @description The entry as restored */
            item: Record<string, never>;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  bulkDeleteEntries: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BulkDeleteInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkResult'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  bulkUpdateEntries: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BulkUpdateInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkResult'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  countEntries: {
    parameters: {
      query?: {
        /** @description A filter: each field names its operators (`{ "title": { "contains": "news" } }`); several fields or operators must all hold; `and` / `or` group conditions. At most 50 conditions. Sent as JSON (`where=<URL-encoded JSON>`) or in brackets (`where[title][contains]=news`). */
        where?: components['schemas']['Where'];
        /** @description Collections with drafts only (elsewhere a 400): published entries, drafts, or both; drafts need the update access */
        status?: 'published' | 'draft' | 'all';
      };
      header?: never;
      path: {
        /** @description The collection's slug */
        slug: 'media';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            total: number;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listMediaEntries: {
    parameters: {
      query?: {
        /** @description A filter: each field names its operators (`{ "title": { "contains": "news" } }`); several fields or operators must all hold; `and` / `or` group conditions. At most 50 conditions. Sent as JSON (`where=<URL-encoded JSON>`) or in brackets (`where[title][contains]=news`). */
        where?: components['schemas']['MediaWhere'];
        /** @description Fields to sort by, separated by commas (at most 10), `-` first for descending; default `-createdAt`. Sortable: `id`, `createdAt`, `updatedAt`, `filename`, `mimeType`, `filesize`, `width`, `height`, `alt`, `caption` */
        sort?: string;
        /** @description Entries per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Fields to answer, separated by commas (`id` and the timestamps always come) */
        select?: string;
        /** @description How many levels of related entries to include in place of their ids */
        depth?: number;
        /** @description Rich text as Lexical JSON, as HTML, or both */
        richTextFormat?: 'json' | 'html' | 'both';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of entries */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['MediaEntry'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createMediaEntry: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The file
           */
          file: string;
          /** @description Text describing the image, for screen readers */
          alt?: string;
          caption?: string;
        };
      };
    };
    responses: {
      /** @description The entry made */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['MediaEntry'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateMediaEntriesWhere: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Update every entry `where` matches (read access needed) */
    requestBody: {
      content: {
        'application/json': {
          /** @description The entries to update, as the `where` of the entry list; `{}` for every entry */
          where: components['schemas']['MediaWhere'];
          /** @description The fields to set, as the body of `PATCH /collections/{slug}/entries/{id}` (the `Collection_<slug>` of the path's collection, any of its keys); checked once. An entry that would then break a required field is left unchanged and reported in `errors` */
          data: components['schemas']['MediaEntryUpdate'];
          /**
           * @description Collections with drafts only (else `400`): the entries `where` reaches. Default `all` for a caller who may read drafts, else `published`; `draft` and `all` need that permission
           * @enum {string}
           */
          status?: 'published' | 'draft' | 'all';
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkResult'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getMediaEntry: {
    parameters: {
      query?: {
        /** @description How many levels of related entries to include in place of their ids */
        depth?: number;
        /** @description Fields to answer, separated by commas (`id` and the timestamps always come) */
        select?: string;
        /** @description Rich text as Lexical JSON, as HTML, or both */
        richTextFormat?: 'json' | 'html' | 'both';
        /** @description A preview token (as the `X-Preview-Token` header): reads the entry it names, drafts included, with no other credentials */
        preview?: string;
      };
      header?: {
        /** @description A preview token: reads the entry it names, drafts included, with no other credentials (as the query parameter `preview`) */
        'X-Preview-Token'?: string;
        /** @description The `ETag` of the entry as the client holds it: 304 while it is still current */
        'If-None-Match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entry */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MediaEntry'];
        };
      };
      /** @description Not modified: `If-None-Match` named the current `ETag` */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteMediaEntry: {
    parameters: {
      query?: never;
      header?: {
        /** @description The `ETag` of the entry the change was made to: 412 when the entry changed since */
        'If-Match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entry deleted */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item:
              | components['schemas']['MediaEntry']
              | {
                  /** Format: uuid */
                  id: string;
                };
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      412: components['responses']['Problem412'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateMediaEntry: {
    parameters: {
      query?: never;
      header?: {
        /** @description The `ETag` of the entry the change was made to: 412 when the entry changed since */
        'If-Match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MediaEntryUpdate'];
      };
    };
    responses: {
      /** @description The entry as it is now */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item:
              | components['schemas']['MediaEntry']
              | {
                  /** Format: uuid */
                  id: string;
                };
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      412: components['responses']['Problem412'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  duplicateMediaEntry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The copy made */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item:
              | components['schemas']['MediaEntry']
              | {
                  /** Format: uuid */
                  id: string;
                };
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteMediaEntries: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BulkDeleteInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkResult'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateMediaEntries: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Entry ids; one that names no entry (or is no id) is reported in `errors` as `NOT_FOUND` */
          ids: string[];
          /** @description The fields to set, as the body of `PATCH /collections/{slug}/entries/{id}` (the `Collection_<slug>` of the path's collection, any of its keys); checked once. An entry that would then break a required field is left unchanged and reported in `errors` */
          data: components['schemas']['MediaEntryUpdate'];
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkResult'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  countMediaEntries: {
    parameters: {
      query?: {
        /** @description A filter: each field names its operators (`{ "title": { "contains": "news" } }`); several fields or operators must all hold; `and` / `or` group conditions. At most 50 conditions. Sent as JSON (`where=<URL-encoded JSON>`) or in brackets (`where[title][contains]=news`). */
        where?: components['schemas']['MediaWhere'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            total: number;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getCollectionSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnrichedCollectionDefinition'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  applyCollectionSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The fields (and drafts) the collection is to have */
    requestBody: {
      content: {
        'application/json': components['schemas']['SchemaInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['CollectionDefinition'];
            changes: components['schemas']['SchemaChange'][];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  previewCollectionSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The fields (and drafts) the collection would have */
    requestBody: {
      content: {
        'application/json': components['schemas']['SchemaInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SchemaPreview'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listActivity: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ActivityItem'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listRecentContent: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RecentEntry'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getDashboardStats: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardStats'];
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listEmailProviders: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'name' | '-name' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['EmailProvider'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createEmailProvider: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateEmailProviderDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailProvider'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEmailProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailProvider'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteEmailProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailProvider'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateEmailProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateEmailProviderDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailProvider'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  setDefaultEmailProvider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailProvider'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  sendTestEmail: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TestEmailProviderDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listEmailTemplates: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'name' | '-name' | 'slug' | '-slug' | 'createdAt' | '-createdAt' | 'updatedAt' | '-updatedAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['EmailTemplate'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createEmailTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateEmailTemplateDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailTemplate'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEmailTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailTemplate'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteEmailTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailTemplate'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateEmailTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateEmailTemplateDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailTemplate'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  previewEmailTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PreviewEmailTemplateDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RenderedEmail'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEmailLayout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailLayout'];
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateEmailLayout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateEmailLayoutDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EmailLayout'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  sendEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SendEmailDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailSent'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  sendTemplateEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SendTemplateEmailDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailSent'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listFieldGroups: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'slug' | '-slug' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['FieldGroupDefinition'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createFieldGroup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description A field group definition */
    requestBody: {
      content: {
        'application/json': components['schemas']['FieldGroupInput'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['FieldGroupDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getFieldGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FieldGroupDefinition'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteFieldGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['FieldGroupDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateFieldGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The keys to change; a fields change is applied */
    requestBody: {
      content: {
        'application/json': components['schemas']['FieldGroupUpdate'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['FieldGroupDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  applyFieldGroupSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The fields the field group is to have */
    requestBody: {
      content: {
        'application/json': components['schemas']['FieldGroupSchemaInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['FieldGroupDefinition'];
            changes: components['schemas']['SchemaChange'][];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  previewFieldGroupSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The fields the field group would have */
    requestBody: {
      content: {
        'application/json': components['schemas']['FieldGroupSchemaInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SchemaPreview'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getGeneralSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GeneralSettings'];
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateGeneralSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateGeneralSettingsDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['GeneralSettings'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listImageSizes: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'name' | '-name' | 'width' | '-width' | 'height' | '-height' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ImageSize'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createImageSize: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateImageSizeDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ImageSize'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteImageSize: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ImageSize'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateImageSize: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateImageSizeDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ImageSize'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  regenerateImageSizes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['ImageRegeneration'];
          };
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getImageRegenerationStatus: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImageRegeneration'];
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getCurrentUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['User'];
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateCurrentUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description The keys below, plus the custom user fields (their names and types: GET /admin/api/user-fields) */
    requestBody: {
      content: {
        'application/json': {
          name?: string | null;
          /** Format: uri */
          image?: string | null;
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['User'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getMyPermissions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            isSuperAdmin: boolean;
            permissions: string[];
          };
        };
      };
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  downloadMediaFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        filename: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, in its stored type */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          /** @description The version of the file, for `If-None-Match` */
          ETag?: string;
          /** @description When the file was stored, for `If-Modified-Since` */
          'Last-Modified'?: string;
          /** @description `public, max-age=31536000, immutable` when visitors may read media, else `private, no-cache` */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          '*/*': unknown;
        };
      };
      /** @description The requested byte range (`Range`), with `Content-Range` */
      206: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          /** @description The version of the file, for `If-None-Match` */
          ETag?: string;
          /** @description When the file was stored, for `If-Modified-Since` */
          'Last-Modified'?: string;
          /** @description `public, max-age=31536000, immutable` when visitors may read media, else `private, no-cache` */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          '*/*': unknown;
        };
      };
      /** @description Unchanged (`If-None-Match` / `If-Modified-Since`); no body */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          /** @description The version of the file, for `If-None-Match` */
          ETag?: string;
          /** @description When the file was stored, for `If-Modified-Since` */
          'Last-Modified'?: string;
          /** @description `public, max-age=31536000, immutable` when visitors may read media, else `private, no-cache` */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      /** @description The range is past the end of the file: `Content-Range: bytes *\/<size>`, no body */
      416: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  downloadMediaFileSize: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        size: string;
        filename: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, in its stored type */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          /** @description The version of the file, for `If-None-Match` */
          ETag?: string;
          /** @description When the file was stored, for `If-Modified-Since` */
          'Last-Modified'?: string;
          /** @description `public, max-age=31536000, immutable` when visitors may read media, else `private, no-cache` */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          '*/*': unknown;
        };
      };
      /** @description The requested byte range (`Range`), with `Content-Range` */
      206: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          /** @description The version of the file, for `If-None-Match` */
          ETag?: string;
          /** @description When the file was stored, for `If-Modified-Since` */
          'Last-Modified'?: string;
          /** @description `public, max-age=31536000, immutable` when visitors may read media, else `private, no-cache` */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          '*/*': unknown;
        };
      };
      /** @description Unchanged (`If-None-Match` / `If-Modified-Since`); no body */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          /** @description The version of the file, for `If-None-Match` */
          ETag?: string;
          /** @description When the file was stored, for `If-Modified-Since` */
          'Last-Modified'?: string;
          /** @description `public, max-age=31536000, immutable` when visitors may read media, else `private, no-cache` */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      /** @description The range is past the end of the file: `Content-Range: bytes *\/<size>`, no body */
      416: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listPermissions: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?:
          'slug' | '-slug' | 'resource' | '-resource' | 'action' | '-action' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Permission'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createPermission: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreatePermissionDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Permission'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getPermission: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Permission'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deletePermission: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Permission'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updatePermission: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdatePermissionDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Permission'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listRoles: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'name' | '-name' | 'slug' | '-slug' | 'level' | '-level' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Role'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createRole: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateRoleDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Role'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateRoleDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listChildRoles: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'name' | '-name' | 'slug' | '-slug' | 'level' | '-level' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Role'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  addChildRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddChildRoleDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  removeChildRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        childId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listParentRoles: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'name' | '-name' | 'slug' | '-slug' | 'level' | '-level' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Role'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listRolePermissions: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?:
          'slug' | '-slug' | 'resource' | '-resource' | 'action' | '-action' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Permission'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  addRolePermissions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddRolePermissionsDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  replaceRolePermissions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReplaceRolePermissionsDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  removeRolePermission: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        permissionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Role'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listSchemaChanges: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'appliedAt' | '-appliedAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              /** Format: uuid */
              id: string;
              /** @enum {string} */
              target: 'collection' | 'single' | 'field-group';
              slug: string;
              changes: components['schemas']['SchemaChange'][];
              /** Format: uuid */
              appliedBy: string | null;
              /** Format: date-time */
              appliedAt: string;
            }[];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listSingles: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'slug' | '-slug' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['SingleDefinition'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createSingle: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description A single definition: its slug, label, drafts and fields */
    requestBody: {
      content: {
        'application/json': components['schemas']['SingleInput'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['SingleDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSingleContent: {
    parameters: {
      query?: {
        /** @description How many levels of related entries to include in place of their ids */
        depth?: number;
        /** @description Fields to answer, separated by commas (`id` and the timestamps always come) */
        select?: string;
        /** @description Rich text as Lexical JSON, as HTML, or both */
        richTextFormat?: 'json' | 'html' | 'both';
        /** @description Collections with drafts only (elsewhere a 400): published entries, drafts, or both; drafts need the update access */
        status?: 'published' | 'draft' | 'all';
        /** @description A preview token (as the `X-Preview-Token` header): reads the entry it names, drafts included, with no other credentials */
        preview?: string;
      };
      header?: {
        /** @description A preview token: reads the entry it names, drafts included, with no other credentials (as the query parameter `preview`) */
        'X-Preview-Token'?: string;
        /** @description The `ETag` of the entry as the client holds it: 304 while it is still current */
        'If-None-Match'?: string;
      };
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entry */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      /** @description Not modified: `If-None-Match` named the current `ETag` */
      304: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteSingle: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['SingleDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateSingleContent: {
    parameters: {
      query?: never;
      header?: {
        /** @description The `ETag` of the entry the change was made to: 412 when the entry changed since */
        'If-Match'?: string;
      };
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description The entry as it is now */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item:
              | Record<string, never>
              | {
                  /** Format: uuid */
                  id: string;
                };
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      412: components['responses']['Problem412'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createSinglePreviewToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PreviewTokenDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Present it as `X-Preview-Token` or as the query parameter `preview` */
            token: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description The definition's preview page, when it has one, with the token in it */
            url?: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listSingleSchedules: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
      };
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['EntrySchedule'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  scheduleSingleChange: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          action: 'publish' | 'unpublish';
          /**
           * Format: date-time
           * @description When: in the future, within a year
           */
          at: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EntrySchedule'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  cancelSingleSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['EntrySchedule'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSingleSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EnrichedSingleDefinition'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateSingleDefinition: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The keys to change; a fields or drafts change is applied */
    requestBody: {
      content: {
        'application/json': components['schemas']['SingleUpdate'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['SingleDefinition'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listSingleVersions: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
      };
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['EntryVersion'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSingleVersion: {
    parameters: {
      query?: {
        /** @description Another version id of the entry, or `current` */
        compare?: string;
      };
      header?: never;
      path: {
        slug: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EntryVersionCompared'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  restoreSingleVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
        versionId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Also publish a draft (needs the publish permission) */
          publish?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            /** @description The entry as restored */
            item: Record<string, never>;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  applySingleSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The fields (and drafts) the single is to have */
    requestBody: {
      content: {
        'application/json': components['schemas']['SchemaInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['SingleDefinition'];
            changes: components['schemas']['SchemaChange'][];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  previewSingleSchema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    /** @description The fields (and drafts) the single would have */
    requestBody: {
      content: {
        'application/json': components['schemas']['SchemaInput'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SchemaPreview'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listUserFields: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'order' | '-order' | 'name' | '-name' | 'label' | '-label';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['UserField'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createUserField: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateUserFieldDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['UserField'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUserField: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserField'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteUserField: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['UserField'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateUserField: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateUserFieldDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['UserField'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  reorderUserFields: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'order' | '-order' | 'name' | '-name' | 'label' | '-label';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReorderUserFieldsDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['UserField'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listUsers: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?:
          'email' | '-email' | 'name' | '-name' | 'createdAt' | '-createdAt' | 'lastLoginAt' | '-lastLoginAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['User'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description The keys below, plus the custom user fields (their names and types: GET /admin/api/user-fields) */
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email: string;
          name: string;
          /** @description 8 to 256 characters with a lower-case letter, an upper-case letter and a digit */
          password?: string;
          roleIds?: string[] | null;
          isActive?: boolean;
          emailVerified?: boolean | null;
          requirePasswordChange?: boolean | null;
          sendInvite?: boolean | null;
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['User'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['User'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['User'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    /** @description The keys below, plus the custom user fields (their names and types: GET /admin/api/user-fields) */
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email?: string;
          name?: string;
          /** Format: uri */
          image?: string | null;
          isActive?: boolean;
          emailVerified?: boolean;
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['User'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  setUserPassword: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SetUserPasswordDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listUserRoles: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RoleRef'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  addUserRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AssignRoleDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['User'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  removeUserRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        roleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['User'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listUserSessions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Session'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  endUserSessions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            ended: number;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Case-insensitive text the items contain */
        search?: string;
        /** @description The field to sort by, `-` first for descending */
        sort?: 'name' | '-name' | 'createdAt' | '-createdAt';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Webhook'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Webhook'];
            /** @description The signing secret: `whsec_` and the base64 of 32 random bytes. Shown only here */
            secret: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Webhook'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWebhookDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            item: components['schemas']['Webhook'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description The page to answer, from 1 */
        page?: number;
        /** @description Items per page; above 500 it is clamped to 500 */
        limit?: number;
        /** @description Only deliveries in this state */
        status?: 'pending' | 'succeeded' | 'failed';
        /** @description Only deliveries of this event type (several: comma-separated) */
        event?:
          | 'entry.created'
          | 'entry.updated'
          | 'entry.deleted'
          | 'entry.published'
          | 'entry.unpublished'
          | 'single.updated'
          | 'single.published'
          | 'media.created'
          | 'media.deleted'
          | 'user.created'
          | 'user.updated'
          | 'user.deleted'
          | 'user.deactivated'
          | 'user.activated'
          | 'user.password-changed'
          | 'schema.applied'
          | 'webhook.test';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['WebhookDelivery'][];
            meta: components['schemas']['ListMeta'];
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDeliveryDetail'];
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  resendWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            /** Format: uuid */
            deliveryId: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            /** @description The signing secret: `whsec_` and the base64 of 32 random bytes. Shown only here */
            secret: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  sendWebhookTest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
            /** @description The `webhook-id` of the test event */
            eventId: string;
          };
        };
      };
      400: components['responses']['Problem400'];
      401: components['responses']['Problem401'];
      403: components['responses']['Problem403'];
      404: components['responses']['Problem404'];
      409: components['responses']['Problem409'];
      413: components['responses']['Problem413'];
      415: components['responses']['Problem415'];
      422: components['responses']['Problem422'];
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            ok: true;
            version: string;
            uptime: number;
            /** Format: date-time */
            timestamp: string;
            database: {
              /** @constant */
              ok: true;
              /** @constant */
              dialect: 'postgres';
              latency: number;
            };
            redis?: {
              ok: boolean;
              latency: number;
            };
          };
        };
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The Prometheus text format (version 0.0.4) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': unknown;
        };
      };
      429: components['responses']['Problem429'];
      500: components['responses']['Problem500'];
      503: components['responses']['Problem503'];
      /** @description Any other failure */
      default: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
}
