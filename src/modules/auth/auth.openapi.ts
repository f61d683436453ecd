/**
 * Answer schemas of the `/auth` routes (src/common/api-schema.ts), written from auth.controller.ts
 * (`answer`, `pause`) and the session user of SPEC 2.1 (`toSessionUser` in accounts/user.mapper.ts).
 * Other modules refer to them by name (`schemaRef('SessionUser')`).
 */
import {
  ANY,
  INTEGER,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';
import { FIELD_NAME_PATTERN } from '../../fields/names';

const TRUE = { type: 'boolean', const: true };

/**
 * The session user (SPEC 2.1): who the caller is, the configured user fields (their value or
 * null) beside the core keys. Not the user record of `/users` (`User`): `roleIds`, no state.
 */
export const SESSION_USER = namedSchema('SessionUser', {
  ...objectSchema({
    id: UUID,
    email: STRING,
    name: STRING,
    image: NULLABLE_STRING,
    roleIds: { type: 'array', items: UUID },
  }),
  patternProperties: {
    [FIELD_NAME_PATTERN.source]: { description: 'A configured user field: its value, or null' },
  },
});

/** The keys of a new session: the access token (also in the cookies) and its expiry (Unix seconds). */
const SESSION_KEYS = { message: STRING, user: SESSION_USER, token: STRING, exp: INTEGER };

/** A sign-in that ended in a session (setup, login, refresh, a resolved challenge...). */
export const SESSION_ANSWER = namedSchema('SessionAnswer', objectSchema(SESSION_KEYS));

/** The keys of a paused sign-in: the step to answer and its token (also in the `svc_pending` cookie). */
const CHALLENGE_KEYS = {
  status: { type: 'string', const: 'challenge' },
  challengeType: STRING,
  pendingToken: STRING,
  uiHint: NULLABLE_STRING,
};

/** A sign-in paused for a second factor or a forced password change (SPEC 3.4). */
export const LOGIN_CHALLENGE = namedSchema('LoginChallenge', objectSchema(CHALLENGE_KEYS));

/** `POST /auth/login`: the session, or the step that must be answered first. */
export const LOGIN_ANSWER = { anyOf: [SESSION_ANSWER, LOGIN_CHALLENGE] };

/** `POST /auth/challenge/resolve`: the session, or (`continues`) the next step. */
export const RESOLVE_ANSWER = {
  anyOf: [
    objectSchema({ ok: TRUE, ...SESSION_KEYS }),
    objectSchema({ ok: TRUE, continues: TRUE, ...CHALLENGE_KEYS }),
  ],
};

export const SETUP_STATUS = objectSchema({ ok: TRUE, completed: { type: 'boolean' } });

export const CSRF_TOKEN = objectSchema({ csrfToken: STRING });

/** `GET /auth/pending`: the outstanding step of an interrupted sign-in (never its token). */
export const PENDING_STEP = objectSchema({
  challengeType: STRING,
  uiHint: NULLABLE_STRING,
  attemptsRemaining: INTEGER,
  expiresAt: { type: 'string', format: 'date-time' },
});

/** A login-page button (SPEC 5.7.7): a same-origin `href`, or a component name. */
const PROVIDER_BUTTON = objectSchema({ strategy: STRING, label: STRING, href: STRING, component: STRING }, [
  'href',
  'component',
]);

/** `GET /auth/ui`: the plugins' login-page parts; challenge views and slots are opaque to the core. */
export const LOGIN_UI = objectSchema({
  providers: { type: 'array', items: PROVIDER_BUTTON },
  challengeViews: { type: 'object', additionalProperties: { type: 'object' } },
  slots: { type: 'object', additionalProperties: ANY },
});

/** `GET /auth/session`: `exp` is null only for a user a plugin's `determineUser` named without a session. */
export const SESSION_READ = objectSchema({ user: SESSION_USER, exp: { type: ['integer', 'null'] } });
