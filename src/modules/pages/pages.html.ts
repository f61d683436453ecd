/**
 * The service's browser pages under `/admin` (issue 21): plain HTML rendered from template
 * strings. Every interpolated value goes through `esc`; the pages carry no inline script or style
 * (the Content-Security-Policy forbids both) and load one script and one style sheet, both served
 * by the service under `/admin/assets/`. The script (`pages.assets.ts`) does the work with `fetch`
 * against `/admin/api`; every URL is a path under `/admin`, so the pages work on whatever origin
 * serves the service.
 */

export const ASSET_PATHS = { js: '/admin/assets/pages.js', css: '/admin/assets/pages.css' } as const;

/** HTML-escapes text and attribute values (double-quoted attributes). */
export function esc(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"'`]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[c]!,
  );
}

/** The two live regions every page has: errors (assertive; focus moves there) and notices. */
function regions(error = ''): string {
  return `<div id="error" class="alert" role="alert" aria-live="assertive" aria-atomic="true" tabindex="-1">${esc(error)}</div>
<div id="notice" class="notice" role="status" aria-live="polite" aria-atomic="true" tabindex="-1"></div>`;
}

const NOSCRIPT = '<noscript><p class="alert">This page needs JavaScript.</p></noscript>';
const PASSWORD_RULE = 'At least 8 characters, with a lower-case letter, an upper-case letter and a digit.';

function layout(p: { page: string; title: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${esc(p.title)} · svc</title>
<link rel="stylesheet" href="${ASSET_PATHS.css}">
<script src="${ASSET_PATHS.js}" defer></script>
</head>
<body data-page="${esc(p.page)}">
<main id="main">
${p.body}
${NOSCRIPT}
</main>
</body>
</html>
`;
}

function field(o: {
  id: string;
  name: string;
  label: string;
  type?: string;
  autocomplete?: string;
  required?: boolean;
  hint?: string;
  extra?: string;
  /** A place for the field's own errors (`data.errors` naming it), read with the field. */
  errors?: boolean;
}): string {
  const hintId = `${o.id}-hint`;
  const errorId = `${o.id}-error`;
  const described = [o.hint ? hintId : '', o.errors ? errorId : ''].filter(Boolean).join(' ');
  return `<div class="field">
<label for="${esc(o.id)}">${esc(o.label)}</label>
<input id="${esc(o.id)}" name="${esc(o.name)}" type="${esc(o.type ?? 'text')}"${
    o.autocomplete ? ` autocomplete="${esc(o.autocomplete)}"` : ''
  }${o.required === false ? '' : ' required'}${described ? ` aria-describedby="${esc(described)}"` : ''}${
    o.extra ? ` ${o.extra}` : ''
  }>
${o.hint ? `<p class="hint" id="${esc(hintId)}">${esc(o.hint)}</p>` : ''}${
    o.errors ? `<p class="field-error" id="${esc(errorId)}"></p>` : ''
  }
</div>`;
}

function passwordPair(prefix: string, label = 'New password'): string {
  return (
    field({
      id: `${prefix}-password`,
      name: 'password',
      label,
      type: 'password',
      autocomplete: 'new-password',
      hint: PASSWORD_RULE,
      extra: 'maxlength="256"',
    }) +
    field({
      id: `${prefix}-confirm`,
      name: 'confirm',
      label: 'Repeat the password',
      type: 'password',
      autocomplete: 'new-password',
      extra: 'maxlength="256"',
    })
  );
}

const SIGN_IN_LINK = '<p><a href="/admin/login">Back to sign in</a></p>';

/**
 * Messages for `?error=` values the service redirects with; any other value gets the generic one.
 * A Map, so `?error=constructor` or `__proto__` finds nothing inherited.
 */
const LOGIN_ERRORS = new Map([
  ['signin-failed', 'Sign-in failed. Try again, or use another way to sign in.'],
]);

export function loginPage(error: string | undefined): string {
  const message =
    error === undefined ? '' : (LOGIN_ERRORS.get(error) ?? 'Sign-in did not complete. Try again.');
  return layout({
    page: 'login',
    title: 'Sign in',
    body: `<h1 id="title" tabindex="-1">Sign in</h1>
${regions(message)}
<section id="step-login" aria-labelledby="title">
<form id="login-form" method="post">
${field({ id: 'login-email', name: 'email', label: 'Email address', type: 'email', autocomplete: 'username', extra: 'maxlength="320"' })}
${field({ id: 'login-password', name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', extra: 'maxlength="1024"' })}
<button type="submit">Sign in</button>
</form>
<div id="resend" hidden>
<button type="button" id="resend-button">Send the verification email again</button>
</div>
<p><a href="/admin/forgot-password">Forgot your password?</a></p>
<div id="providers" hidden>
<h2 id="providers-title">Other ways to sign in</h2>
<ul id="provider-list" class="providers" aria-labelledby="providers-title"></ul>
<form id="magic-form" method="post" hidden aria-labelledby="magic-title">
<h3 id="magic-title">Sign in with an emailed link</h3>
${field({ id: 'magic-email', name: 'email', label: 'Your email, for a sign-in link', type: 'email', autocomplete: 'username', extra: 'maxlength="320"' })}
<button type="submit">Email me a link</button>
</form>
</div>
</section>
<section id="step-challenge" hidden aria-labelledby="challenge-title">
<h2 id="challenge-title" tabindex="-1">Two-step verification</h2>
<form id="challenge-form" method="post">
${field({ id: 'challenge-code', name: 'code', label: 'Code', autocomplete: 'one-time-code', hint: 'Enter the code from your authenticator app, or a recovery code.', extra: 'inputmode="numeric" maxlength="64" spellcheck="false"' })}
<button type="submit">Continue</button>
</form>
<p><a href="/admin/login">Start over</a></p>
</section>
<section id="step-passkey" hidden aria-labelledby="passkey-title">
<h2 id="passkey-title" tabindex="-1">Confirm with your passkey</h2>
<p>Your account has a passkey. Use it to finish signing in.</p>
<button type="button" id="passkey-button">Use my passkey</button>
<p><a href="/admin/login">Start over</a></p>
</section>
<section id="step-initial-password" hidden aria-labelledby="initial-title">
<h2 id="initial-title" tabindex="-1">Choose your password</h2>
<p>An administrator set your password. Choose your own to finish signing in.</p>
<form id="initial-password-form" method="post">
${passwordPair('initial')}
<button type="submit">Set password and sign in</button>
</form>
<p><a href="/admin/login">Start over</a></p>
</section>
<section id="step-enrol" hidden aria-labelledby="enrol-title">
<h2 id="enrol-title" tabindex="-1">Set up a second factor</h2>
<p id="enrol-text">Your account needs a second factor. Set one up to finish signing in.</p>
<div id="enrol-totp" hidden>
<h3 id="enrol-totp-title">An authenticator app</h3>
<button type="button" id="enrol-totp-start">Set up an authenticator app</button>
<div id="enrol-totp-setup" hidden>
<p>Scan the QR code with your authenticator app, or type in this key: <code id="enrol-totp-secret"></code></p>
<img id="enrol-totp-qr" class="qr" alt="QR code holding the key above, for your authenticator app" width="200" height="200">
<form id="enrol-totp-form" method="post">
${field({ id: 'enrol-totp-code', name: 'code', label: 'Code from the app', autocomplete: 'one-time-code', extra: 'inputmode="numeric" maxlength="64" spellcheck="false"' })}
<button type="submit">Turn on two-step verification and sign in</button>
</form>
</div>
</div>
<div id="enrol-passkey" hidden>
<h3 id="enrol-passkey-title">A passkey</h3>
<form id="enrol-passkey-form" method="post" aria-labelledby="enrol-passkey-title">
${field({ id: 'enrol-passkey-name', name: 'name', label: 'Name of the passkey (optional)', required: false, hint: 'For example the device it is on.', extra: 'maxlength="100"' })}
<button type="submit">Add a passkey and sign in</button>
</form>
</div>
<p><a href="/admin/login">Start over</a></p>
</section>
<section id="step-recovery" hidden aria-labelledby="recovery-title">
<h2 id="recovery-title" tabindex="-1">Your recovery codes</h2>
<p>Two-step verification is on. Each code signs you in once when you do not have your app. Keep them somewhere safe: they are not shown again.</p>
<ul id="recovery-codes" class="codes"></ul>
<button type="button" id="recovery-continue">I have kept them: continue</button>
</section>
<section id="step-unsupported" hidden aria-labelledby="unsupported-title">
<h2 id="unsupported-title" tabindex="-1">Another step is needed</h2>
<p id="unsupported-text">This sign-in needs a step this page cannot show.</p>
<p><a href="/admin/login">Start over</a></p>
</section>`,
  });
}

export function forgotPasswordPage(): string {
  return layout({
    page: 'forgot-password',
    title: 'Forgot password',
    body: `<h1 id="title" tabindex="-1">Forgot your password?</h1>
${regions()}
<p>Enter the email address of your account. If it has one, we send it a link to choose a new password.</p>
<form id="forgot-form" method="post">
${field({ id: 'forgot-email', name: 'email', label: 'Email address', type: 'email', autocomplete: 'username', extra: 'maxlength="320"' })}
<button type="submit">Send the link</button>
</form>
${SIGN_IN_LINK}`,
  });
}

/** A page driven by an emailed token; without one it says the link is incomplete. */
function tokenPage(o: {
  page: string;
  title: string;
  token: string | undefined;
  form: string;
  intro: string;
}) {
  const missing = o.token === undefined || o.token === '';
  return layout({
    page: o.page,
    title: o.title,
    body: `<h1 id="title" tabindex="-1">${esc(o.title)}</h1>
${regions(missing ? 'This link is incomplete. Open the link from the email again, or ask for a new one.' : '')}
<input type="hidden" id="token" value="${esc(o.token ?? '')}">
${missing ? '' : `<p id="intro">${esc(o.intro)}</p>\n${o.form}`}
<p id="done" hidden><a href="/admin/login">Sign in</a></p>
${SIGN_IN_LINK}`,
  });
}

export function resetPasswordPage(token: string | undefined): string {
  return tokenPage({
    page: 'reset-password',
    title: 'Choose a new password',
    token,
    intro: 'Choose a new password for your account. Every place you are signed in is signed out.',
    form: `<form id="reset-form" method="post">
${passwordPair('reset')}
<button type="submit">Save the new password</button>
</form>
<p><a href="/admin/forgot-password">Ask for a new link</a></p>`,
  });
}

export function verifyEmailPage(token: string | undefined): string {
  return tokenPage({
    page: 'verify-email',
    title: 'Verify your email address',
    token,
    intro: 'Confirm that this email address is yours.',
    form: `<form id="verify-form" method="post">
<button type="submit">Verify my email address</button>
</form>`,
  });
}

export function acceptInvitePage(token: string | undefined): string {
  return tokenPage({
    page: 'accept-invite',
    title: 'Accept your invitation',
    token,
    intro: 'Choose a password to finish setting up your account.',
    form: `<form id="invite-form" method="post">
${field({ id: 'invite-name', name: 'name', label: 'Your name (optional)', autocomplete: 'name', required: false, extra: 'maxlength="200"' })}
${passwordPair('invite', 'Password')}
<button type="submit">Create my account</button>
</form>`,
  });
}

export function homePage(): string {
  return layout({
    page: 'home',
    title: 'Your account',
    body: `<h1 id="title" tabindex="-1">Your account</h1>
${regions()}
<section id="who" aria-labelledby="who-title">
<h2 id="who-title">Signed in</h2>
<p id="who-text">Loading…</p>
<p><a href="/admin/content">Open the content editor</a></p>
<button type="button" id="sign-out">Sign out</button>
</section>
<dialog id="reauth" aria-labelledby="reauth-title" aria-describedby="reauth-text">
<form id="reauth-form" method="dialog">
<h2 id="reauth-title">Confirm it is you</h2>
<p id="reauth-text">This change needs your password again, because you signed in a while ago.</p>
${field({ id: 'reauth-password', name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', extra: 'maxlength="1024"', errors: true })}
<button type="submit">Confirm</button>
<button type="button" id="reauth-cancel" class="secondary">Cancel</button>
</form>
</dialog>
<section id="security" aria-labelledby="security-title">
<h2 id="security-title" tabindex="-1">Security</h2>
<section id="sessions" hidden aria-labelledby="sessions-title">
<h3 id="sessions-title" tabindex="-1">Sessions</h3>
<p>Every place you are signed in. End the ones you do not know or no longer use; to end this one, sign out.</p>
<table id="sessions-table">
<caption class="visually-hidden">Where you are signed in, most recently used first</caption>
<thead><tr><th scope="col">Browser or app</th><th scope="col">IP address</th><th scope="col">Started</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead>
<tbody id="sessions-body"></tbody>
</table>
<button type="button" id="sessions-end-others" hidden>Sign out everywhere else</button>
</section>
<section id="totp" hidden aria-labelledby="totp-title">
<h3 id="totp-title" tabindex="-1">Two-step verification</h3>
<p id="totp-state"></p>
<button type="button" id="totp-start" hidden>Set up an authenticator app</button>
<div id="totp-enrol" hidden>
<h4 id="totp-enrol-title" tabindex="-1">Set up your authenticator app</h4>
<p>Scan the QR code with your authenticator app, or type in this key: <code id="totp-secret"></code></p>
<img id="totp-qr" class="qr" alt="QR code holding the key above, for your authenticator app" width="200" height="200">
<form id="totp-confirm-form" method="post">
${field({ id: 'totp-confirm-code', name: 'code', label: 'Code from the app', autocomplete: 'one-time-code', extra: 'inputmode="numeric" maxlength="64" spellcheck="false"' })}
<button type="submit">Turn on two-step verification</button>
</form>
</div>
<div id="totp-recovery" hidden>
<h4 id="totp-recovery-title" tabindex="-1">Recovery codes</h4>
<p>Each code signs you in once when you do not have your app. Keep them somewhere safe: they are not shown again.</p>
<ul id="totp-codes" class="codes"></ul>
</div>
<form id="totp-disable-form" method="post" hidden>
${field({ id: 'totp-disable-code', name: 'code', label: 'A current code or a recovery code', autocomplete: 'one-time-code', extra: 'maxlength="64" spellcheck="false"' })}
<button type="submit">Turn off two-step verification</button>
</form>
</section>
<section id="passkeys" hidden aria-labelledby="passkeys-title">
<h3 id="passkeys-title" tabindex="-1">Passkeys</h3>
<p>A passkey signs you in with your device’s screen lock or a security key: on its own, or after your password.</p>
<table id="passkeys-table" hidden>
<caption class="visually-hidden">Your passkeys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead>
<tbody id="passkeys-body"></tbody>
</table>
<p id="passkeys-empty" hidden>You have no passkeys.</p>
<div id="passkey-add">
<h4 id="passkey-form-title">Add a passkey</h4>
<form id="passkey-form" method="post" aria-labelledby="passkey-form-title">
${field({ id: 'passkey-name', name: 'name', label: 'Name of the passkey (optional)', required: false, hint: 'For example the device it is on.', extra: 'maxlength="100"' })}
<button type="submit">Add a passkey</button>
</form>
</div>
</section>
<section id="keys" hidden aria-labelledby="keys-title">
<h3 id="keys-title" tabindex="-1">API keys</h3>
<p>Keys let programs use the API on your behalf. A key is shown once, when it is created or rotated.</p>
<table id="keys-table" hidden>
<caption class="visually-hidden">Your API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead>
<tbody id="keys-body"></tbody>
</table>
<p id="keys-empty" hidden>You have no API keys.</p>
<form id="key-rotate-form" method="post" hidden aria-labelledby="key-rotate-title">
<h4 id="key-rotate-title" tabindex="-1">Rotate the key</h4>
<p>The key gets a new value, shown once. Programs using the old value need the new one.</p>
<div class="field">
<label for="key-rotate-grace">The old value keeps working for</label>
<select id="key-rotate-grace" name="graceSeconds">
<option value="0">No time: it stops at once</option>
<option value="3600">1 hour</option>
<option value="86400">24 hours</option>
</select>
</div>
<button type="submit">Rotate the key</button>
<button type="button" id="key-rotate-cancel" class="secondary">Cancel</button>
</form>
<div id="key-created" hidden>
<div class="field">
<label for="key-value" id="key-value-label">Your new key: copy it now, it is not shown again</label>
<input id="key-value" type="text" readonly spellcheck="false">
</div>
<button type="button" id="key-copy">Copy the key</button>
</div>
<h4 id="key-form-title">Create a key</h4>
<form id="key-form" method="post" aria-labelledby="key-form-title">
${field({ id: 'key-name', name: 'name', label: 'Name', extra: 'maxlength="200"' })}
${field({ id: 'key-description', name: 'description', label: 'Description (optional)', required: false, extra: 'maxlength="1000"' })}
<div class="field">
<label for="key-type">Type</label>
<select id="key-type" name="type">
<option value="read-only">Read only</option>
<option value="full-access">Full access (your permissions)</option>
</select>
</div>
${field({ id: 'key-scopes', name: 'scopes', label: 'Scopes (optional)', required: false, hint: 'Permission slugs separated by commas, for example read-users, read-media: the key gets only those its type grants. Leave empty for all of them.', extra: 'maxlength="2000" spellcheck="false" autocapitalize="none"', errors: true })}
${field({ id: 'key-expires', name: 'expiresAt', label: 'Expires on (optional)', type: 'date', required: false, hint: 'Leave empty for a key that does not expire.' })}
<button type="submit">Create key</button>
</form>
</section>
</section>`,
  });
}
