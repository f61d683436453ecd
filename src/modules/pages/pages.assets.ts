/**
 * The one script and the one style sheet of the pages (pages.html.ts), served by the service at
 * /admin/assets/pages.js and /admin/assets/pages.css. Kept as strings in TypeScript so the build
 * (tsc to dist/) ships them with no copy step. The script uses no backtick and no template
 * placeholder, so each asset is its text exactly (String.raw keeps every backslash).
 *
 * The script: every write first fetches a CSRF token (GET /admin/api/auth/csrf) and sends it as
 * X-CSRF-Token (CONTRACTS 3.1); errors are written into the page's assertive live region, which
 * takes the focus; no HTML is ever built from text (textContent only). Passkeys (the passkey
 * plugin's routes, when it is installed) go through navigator.credentials, with the WebAuthn JSON
 * forms converted to and from ArrayBuffers here (base64url), no library.
 */

export const PAGES_JS = String.raw`(function () {
  'use strict';
  var API = '/admin/api';
  var csrfToken = null;

  function $(id) {
    return document.getElementById(id);
  }
  function show(el, on) {
    if (el) {
      el.hidden = !on;
    }
  }
  function params() {
    return new URLSearchParams(window.location.search);
  }
  function go(path) {
    window.location.assign(path);
  }

  // ---- the JSON API (a CSRF token from GET /auth/csrf on every write)

  async function getCsrf(fresh) {
    if (csrfToken && !fresh) {
      return csrfToken;
    }
    var res = await fetch(API + '/auth/csrf', {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    var body = await res.json();
    csrfToken = body.csrfToken;
    return csrfToken;
  }

  async function api(method, path, body, retried) {
    var headers = { Accept: 'application/json' };
    var init = { method: method, credentials: 'same-origin', headers: headers, cache: 'no-store' };
    var res;
    try {
      if (method !== 'GET') {
        headers['X-CSRF-Token'] = await getCsrf(false);
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body || {});
      }
      res = await fetch(API + path, init);
    } catch (e) {
      return {
        ok: false,
        status: 0,
        error: { code: 'NETWORK', message: 'The service could not be reached. Check your connection and try again.' },
      };
    }
    if (res.redirected) {
      // A route that ends in a redirect (completeLogin's 302): fetch followed it; the caller goes there.
      return { ok: true, status: res.status, redirected: res.url };
    }
    var data = null;
    if (res.status !== 204) {
      try {
        data = await res.json();
      } catch (e) {
        data = null;
      }
    }
    if (res.ok) {
      return { ok: true, status: res.status, data: data };
    }
    var error = data && data.error ? data.error : { code: 'ERROR', message: 'Something went wrong (' + res.status + ').' };
    if (error.code === 'CSRF_FAILED' && method !== 'GET' && !retried) {
      csrfToken = null;
      return api(method, path, body, true);
    }
    return { ok: false, status: res.status, error: error };
  }

  /**
   * A signed-in call: an expired access token is refreshed once, else the visitor signs in. A
   * sensitive change the server refuses for an old sign-in (REAUTH_REQUIRED) asks for the
   * password, then is sent again; cancelled, it answers null like a call that went nowhere.
   */
  async function authed(method, path, body, reauthed) {
    var r = await api(method, path, body);
    if (!r.ok && r.status === 401 && r.error.code === 'AUTH_REQUIRED') {
      var refreshed = await api('POST', '/auth/refresh', {});
      if (refreshed.ok) {
        r = await api(method, path, body);
      }
      if (!r.ok && r.status === 401 && r.error.code === 'AUTH_REQUIRED') {
        go('/admin/login?next=' + encodeURIComponent(window.location.pathname));
        return null;
      }
    }
    if (!r.ok && r.error.code === 'REAUTH_REQUIRED' && !reauthed) {
      return (await confirmPassword()) ? authed(method, path, body, true) : null;
    }
    return r;
  }

  /**
   * The password prompt (a modal dialog): POST /auth/reauthenticate until the password is right
   * or the person cancels; resolves whether it was confirmed. Focus returns where it was.
   */
  function confirmPassword() {
    var dialog = $('reauth');
    var form = $('reauth-form');
    var input = $('reauth-password');
    var error = $('reauth-password-error');
    var before = document.activeElement;
    return new Promise(function (resolve) {
      function close(confirmed) {
        form.removeEventListener('submit', submit);
        $('reauth-cancel').removeEventListener('click', cancel);
        dialog.removeEventListener('cancel', cancel);
        form.reset();
        error.textContent = '';
        input.removeAttribute('aria-invalid');
        dialog.close();
        if (before && before.focus) {
          before.focus();
        }
        resolve(confirmed);
      }
      function cancel(event) {
        event.preventDefault();
        close(false);
      }
      async function submit(event) {
        event.preventDefault();
        var r = await api('POST', '/auth/reauthenticate', { password: input.value });
        if (r.ok) {
          close(true);
          return;
        }
        error.textContent =
          r.error.code === 'INVALID_INPUT' ? 'That password is not right.' : r.error.message;
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
      form.addEventListener('submit', submit);
      $('reauth-cancel').addEventListener('click', cancel);
      dialog.addEventListener('cancel', cancel);
      dialog.showModal();
      input.focus();
    });
  }

  // ---- messages: errors go to the assertive region and take the focus

  function clearMessages() {
    $('error').textContent = '';
    $('notice').textContent = '';
    var invalid = document.querySelectorAll('[aria-invalid="true"]');
    for (var i = 0; i < invalid.length; i++) {
      invalid[i].removeAttribute('aria-invalid');
    }
    var fieldErrors = document.querySelectorAll('.field-error');
    for (var j = 0; j < fieldErrors.length; j++) {
      fieldErrors[j].textContent = '';
    }
  }

  function showError(text, items) {
    var el = $('error');
    $('notice').textContent = '';
    el.textContent = '';
    var p = document.createElement('p');
    p.textContent = text;
    el.appendChild(p);
    if (items && items.length) {
      var ul = document.createElement('ul');
      items.forEach(function (item) {
        var li = document.createElement('li');
        li.textContent = item;
        ul.appendChild(li);
      });
      el.appendChild(ul);
    }
    el.focus();
  }

  function showNotice(text, focus) {
    var el = $('notice');
    $('error').textContent = '';
    el.textContent = text;
    if (focus) {
      el.focus();
    }
  }

  /** A problem answer as a message: validation errors name and mark their fields. */
  function showProblem(error, form, messages) {
    var special = messages && messages[error.code];
    if (special) {
      showError(special);
      return;
    }
    if (error.code === 'RATE_LIMITED') {
      var wait = error.data && error.data.retryAfterSeconds;
      showError('Too many attempts. Try again' + (wait ? ' in ' + wait + ' seconds.' : ' later.'));
      return;
    }
    var problems = error.data && Array.isArray(error.data.errors) ? error.data.errors : [];
    var items = [];
    problems.forEach(function (p) {
      if (p && typeof p.message === 'string') {
        items.push(p.message);
      }
      if (form && p && typeof p.path === 'string') {
        // scopes.2 names the field scopes
        var name = p.path === 'newPassword' ? 'password' : p.path.split('.')[0];
        var input = form.elements.namedItem(name);
        if (input && input.setAttribute) {
          input.setAttribute('aria-invalid', 'true');
          // A field with its own error slot shows the message next to it too.
          var slot = input.id ? $(input.id + '-error') : null;
          if (slot && typeof p.message === 'string') {
            slot.textContent = (slot.textContent ? slot.textContent + ' ' : '') + p.message;
          }
        }
      }
    });
    showError(error.message || 'Something went wrong.', items);
  }

  /** Runs a form's submit handler with its button disabled; native validation runs first. */
  function onSubmit(form, handler) {
    if (!form) {
      return;
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var button = form.querySelector('button[type="submit"]');
      if (button && button.disabled) {
        return;
      }
      clearMessages();
      if (button) {
        button.disabled = true;
      }
      form.setAttribute('aria-busy', 'true');
      Promise.resolve()
        .then(function () {
          return handler(form);
        })
        .catch(function () {
          showError('Something went wrong. Try again.');
        })
        .then(function () {
          if (button) {
            button.disabled = false;
          }
          form.removeAttribute('aria-busy');
        });
    });
  }

  /** Runs a button's click handler with the button disabled, one run at a time. */
  function onClick(button, handler) {
    button.addEventListener('click', function () {
      if (button.disabled) {
        return;
      }
      clearMessages();
      button.disabled = true;
      Promise.resolve()
        .then(handler)
        .catch(function () {
          showError('Something went wrong. Try again.');
        })
        .then(function () {
          button.disabled = false;
        });
    });
  }

  function value(form, name) {
    var el = form.elements.namedItem(name);
    return el ? el.value : '';
  }

  /** The two password fields agree, else the error names the second one. */
  function passwordsMatch(form) {
    if (value(form, 'password') === value(form, 'confirm')) {
      return true;
    }
    form.elements.namedItem('confirm').setAttribute('aria-invalid', 'true');
    showError('The two passwords are not the same.');
    return false;
  }

  /** The token of an emailed link, then out of the address bar and the history. */
  function takeToken() {
    var el = $('token');
    var token = el ? el.value : '';
    if (token && window.history && window.history.replaceState) {
      window.history.replaceState(null, '', window.location.pathname);
    }
    return token;
  }

  /**
   * An /admin page to land on after signing in, else /admin: never the API, nor a path a browser,
   * proxy or router could read as another one (the server's safeNext rules, src/common/redirects.ts).
   */
  function nextPath() {
    var next = params().get('next') || '';
    if (next.charAt(0) !== '/' || /[\\\u0000-\u001f\u007f]/.test(next)) {
      return '/admin';
    }
    var segments = next.split(/[?#]/)[0].split('/');
    if (segments[1] !== 'admin') {
      return '/admin';
    }
    for (var i = 2; i < segments.length; i++) {
      var segment;
      try {
        segment = decodeURIComponent(segments[i]);
      } catch (e) {
        return '/admin';
      }
      if (
        (segment === '' && i < segments.length - 1) ||
        segment === '.' ||
        segment === '..' ||
        /[\/\\%\u0000-\u001f\u007f]/.test(segment) ||
        (i === 2 && segment.toLowerCase() === 'api')
      ) {
        return '/admin';
      }
    }
    return next;
  }

  // ---- passkeys (the passkey plugin): WebAuthn JSON <-> ArrayBuffer (base64url), the browser's prompt

  var PASSKEYS = '/plugins/passkeys';

  function passkeysSupported() {
    return !!(window.PublicKeyCredential && navigator.credentials && window.atob);
  }

  function fromB64url(text) {
    var b64 = String(text).replace(/-/g, '+').replace(/_/g, '/');
    while (b64.length % 4) {
      b64 += '=';
    }
    var bin = window.atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) {
      bytes[i] = bin.charCodeAt(i);
    }
    return bytes.buffer;
  }

  function toB64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var bin = '';
    for (var i = 0; i < bytes.length; i++) {
      bin += String.fromCharCode(bytes[i]);
    }
    return window.btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function descriptors(list) {
    return (list || []).map(function (c) {
      return { type: 'public-key', id: fromB64url(c.id), transports: c.transports };
    });
  }

  /** The plugin's options (PublicKeyCredentialCreation/RequestOptionsJSON) as the browser takes them. */
  function publicKeyOptions(o) {
    var out = Object.assign({}, o, { challenge: fromB64url(o.challenge) });
    if (o.user) {
      out.user = Object.assign({}, o.user, { id: fromB64url(o.user.id) });
    }
    if (o.excludeCredentials) {
      out.excludeCredentials = descriptors(o.excludeCredentials);
    }
    if (o.allowCredentials) {
      out.allowCredentials = descriptors(o.allowCredentials);
    }
    return out;
  }

  /** A credential the browser made or used, as the plugin reads it (RegistrationResponseJSON etc.). */
  function credentialJSON(cred) {
    var r = cred.response;
    var response = { clientDataJSON: toB64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toB64url(r.attestationObject);
      response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      response.authenticatorData = toB64url(r.authenticatorData);
      response.signature = toB64url(r.signature);
      if (r.userHandle) {
        response.userHandle = toB64url(r.userHandle);
      }
    }
    return {
      id: cred.id,
      rawId: toB64url(cred.rawId),
      type: cred.type,
      authenticatorAttachment: cred.authenticatorAttachment || undefined,
      clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
      response: response,
    };
  }

  /** navigator.credentials.create or .get with the plugin's options: the credential's JSON, or why not. */
  async function askPasskey(kind, options) {
    if (!passkeysSupported()) {
      return { ok: false, message: 'This browser cannot use passkeys.' };
    }
    try {
      var cred = await navigator.credentials[kind]({ publicKey: publicKeyOptions(options) });
      if (cred) {
        return { ok: true, credential: credentialJSON(cred) };
      }
    } catch (e) {
      if (e && e.name === 'InvalidStateError') {
        return { ok: false, message: 'This device holds a passkey for your account already.' };
      }
      if (!e || e.name !== 'NotAllowedError') {
        var why = (e && e.name) || 'error';
        return { ok: false, message: 'The passkey could not be used (' + why + '). Try again.' };
      }
    }
    return { ok: false, message: 'No passkey was used: the request was cancelled or timed out. Try again.' };
  }

  /** Where a followed redirect led, when it is a page of this site under /admin; else /admin. */
  function goRedirected(url) {
    var to = new URL(url, window.location.href);
    var ours = to.origin === window.location.origin && /^\/admin(\/|$)/.test(to.pathname);
    go(ours ? to.pathname + to.search : '/admin');
  }

  // ---- /admin/login

  var pendingToken = null;

  function showStep(id) {
    var steps = [
      'step-login',
      'step-challenge',
      'step-passkey',
      'step-initial-password',
      'step-enrol',
      'step-recovery',
      'step-unsupported',
    ];
    steps.forEach(function (s) {
      show($(s), s === id);
    });
  }

  /** Shows the step a paused sign-in waits for; fromClick: the passkey prompt opens at once. */
  function startStep(type, hint, attemptsRemaining, fromClick) {
    if (type === 'passkey' && passkeysSupported()) {
      showStep('step-passkey');
      var button = $('passkey-button');
      button.focus();
      if (fromClick) {
        button.click();
      }
      return;
    }
    if (type === 'mfa-enrol') {
      startEnrolment(hint);
      return;
    }
    if (type === 'set-initial-password') {
      showStep('step-initial-password');
      $('initial-password').focus();
      return;
    }
    if (type === 'totp') {
      showStep('step-challenge');
      $('challenge-title').textContent = 'Two-step verification';
      $('challenge-code-hint').textContent =
        (hint || 'Enter the 6-digit code from your authenticator app') + '. A recovery code works too.';
      var code = $('challenge-code');
      code.value = '';
      code.focus();
      if (typeof attemptsRemaining === 'number') {
        showNotice(attemptsRemaining + ' attempts left.', false);
      }
      return;
    }
    showStep('step-unsupported');
    $('unsupported-text').textContent =
      (hint ? hint + '. ' : '') + 'This page cannot show this step of the sign-in. Start over, or ask an administrator.';
    $('unsupported-title').focus();
  }

  function backToLogin(message) {
    pendingToken = null;
    showStep('step-login');
    showError(message);
  }

  function afterSignIn(r) {
    if (r.data && r.data.status === 'challenge') {
      pendingToken = r.data.pendingToken || null;
      startStep(r.data.challengeType, r.data.uiHint, undefined, true);
      return;
    }
    go(nextPath());
  }

  /**
   * POST /auth/challenge/resolve with the step's answer: signed in, or the next step; a wrong
   * answer keeps the step (its new token) with wrong announced; a spent step starts over.
   */
  async function resolveStep(response, wrong, field) {
    var body = { response: response };
    if (pendingToken) {
      body.pendingToken = pendingToken;
    }
    var r = await api('POST', '/auth/challenge/resolve', body);
    if (r.ok) {
      if (r.data && r.data.continues) {
        pendingToken = r.data.pendingToken || null;
        startStep(r.data.challengeType, r.data.uiHint, undefined, true);
        return;
      }
      go(nextPath());
      return;
    }
    var data = r.error.data || {};
    if (r.error.code === 'AUTH_INVALID_CREDENTIALS' && typeof data.pendingToken === 'string') {
      pendingToken = data.pendingToken;
      if (field) {
        field.value = '';
        field.setAttribute('aria-invalid', 'true');
      }
      var left = data.attemptsRemaining;
      showError(wrong + (typeof left === 'number' ? ' ' + left + ' attempts left.' : ''));
      return;
    }
    if (r.error.code === 'AUTH_INVALID_CREDENTIALS') {
      backToLogin('This sign-in has expired or had too many wrong answers. Sign in again.');
      return;
    }
    showProblem(r.error, field && field.form);
  }

  /** The passkey second step: options for the pending sign-in, the browser's assertion, resolve. */
  async function confirmWithPasskey() {
    var body = pendingToken ? { pendingToken: pendingToken } : {};
    var options = await api('POST', PASSKEYS + '/challenge/options', body);
    if (!options.ok) {
      if (options.error.code === 'AUTH_INVALID_CREDENTIALS' || options.status === 404) {
        backToLogin('This sign-in has expired. Sign in again.');
      } else {
        showProblem(options.error);
      }
      return;
    }
    var asked = await askPasskey('get', options.data);
    if (!asked.ok) {
      showError(asked.message);
      return;
    }
    await resolveStep({ assertion: asked.credential }, 'The passkey could not be verified. Try again.');
  }

  /** Passwordless: login/options, the browser's discoverable-credential prompt, login/verify (a 302). */
  async function signInWithPasskey() {
    var started = await api('POST', PASSKEYS + '/login/options', {});
    if (!started.ok) {
      showProblem(started.error);
      return;
    }
    var asked = await askPasskey('get', started.data.options);
    if (!asked.ok) {
      showError(asked.message);
      return;
    }
    var r = await api('POST', PASSKEYS + '/login/verify', {
      flowId: started.data.flowId,
      response: asked.credential,
      next: nextPath(),
    });
    if (r.ok && r.redirected) {
      goRedirected(r.redirected);
      return;
    }
    showProblem(r.ok ? { message: 'Sign-in did not complete. Try again.' } : r.error, null, {
      AUTH_INVALID_CREDENTIALS: 'This passkey could not sign you in. Try again, or use your password.',
    });
  }

  // ---- the mfa-enrol step: a second factor set up before the session

  /** GET /auth/ui, asked once: its challenge views name the installed second factors. */
  var loginUi = null;
  function loadLoginUi() {
    if (!loginUi) {
      loginUi = api('GET', '/auth/ui');
    }
    return loginUi;
  }

  /** The enrolment routes take the pending token in the body, else read the svc_pending cookie. */
  function withPending(body) {
    var out = Object.assign({}, body || {});
    if (pendingToken) {
      out.pendingToken = pendingToken;
    }
    return out;
  }

  /** An enrolment route's refusal: a spent or expired step starts over, anything else is shown. */
  function enrolProblem(error, form, messages) {
    if (error.code === 'AUTH_REQUIRED' || error.code === 'AUTH_INVALID_CREDENTIALS') {
      backToLogin('This sign-in has expired. Sign in again.');
      return;
    }
    showProblem(error, form, messages);
  }

  /** The session, or the next step, once the second factor is set up. */
  function afterEnrolment(data) {
    if (data && data.status === 'challenge') {
      pendingToken = data.pendingToken || null;
      startStep(data.challengeType, data.uiHint, undefined, false);
      return;
    }
    go(nextPath());
  }

  async function showEnrolment(hint) {
    var ui = await loadLoginUi();
    var views = (ui.ok && ui.data && ui.data.challengeViews) || {};
    var totp = !!views.totp;
    var passkey = !!views.passkey && passkeysSupported();
    if (!totp && !passkey) {
      showStep('step-unsupported');
      $('unsupported-text').textContent =
        (hint ? hint + '. ' : '') + 'This page cannot set up a second factor here. Ask an administrator.';
      $('unsupported-title').focus();
      return;
    }
    showStep('step-enrol');
    // The page's own words: the service's hint names every kind of second factor, installed or not.
    $('enrol-text').textContent =
      'Your account needs a second factor before you can sign in. ' +
      (totp && passkey
        ? 'Set up an authenticator app or a passkey.'
        : totp
          ? 'Set up an authenticator app.'
          : 'Add a passkey.');
    show($('enrol-totp'), totp);
    show($('enrol-totp-start'), true);
    show($('enrol-totp-setup'), false);
    show($('enrol-passkey'), passkey);
    $('enrol-title').focus();
  }

  function startEnrolment(hint) {
    showEnrolment(hint).catch(function () {
      showError('Something went wrong. Reload the page and try again.');
    });
  }

  async function enrolTotpStart() {
    var r = await api('POST', '/plugins/totp/enroll', withPending({}));
    if (!r.ok) {
      enrolProblem(r.error);
      return;
    }
    $('enrol-totp-secret').textContent = r.data.secret;
    $('enrol-totp-qr').src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(r.data.qrSvg);
    show($('enrol-totp-start'), false);
    show($('enrol-totp-setup'), true);
    $('enrol-totp-code').focus();
  }

  /** The answer of the TOTP enrolment, kept while its recovery codes are shown. */
  var enrolled = null;

  async function enrolTotpConfirm(form) {
    var code = form.elements.namedItem('code');
    var r = await api('POST', '/plugins/totp/enroll/confirm', withPending({ code: code.value.trim() }));
    if (!r.ok) {
      if (r.error.code === 'INVALID_INPUT') {
        code.value = '';
      }
      enrolProblem(r.error, form, { INVALID_INPUT: 'That code is not right. Try the code the app shows now.' });
      return;
    }
    form.reset();
    var codes = $('recovery-codes');
    codes.textContent = '';
    ((r.data && r.data.recoveryCodes) || []).forEach(function (c) {
      var li = document.createElement('li');
      li.textContent = c;
      codes.appendChild(li);
    });
    enrolled = r.data;
    showStep('step-recovery');
    $('recovery-title').focus();
  }

  async function enrolPasskey(form) {
    var options = await api('POST', PASSKEYS + '/register/options', withPending({}));
    if (!options.ok) {
      enrolProblem(options.error, form);
      return;
    }
    var asked = await askPasskey('create', options.data);
    if (!asked.ok) {
      showError(asked.message);
      return;
    }
    var body = withPending({ response: asked.credential });
    var name = value(form, 'name').trim();
    if (name) {
      body.name = name;
    }
    var r = await api('POST', PASSKEYS + '/register/verify', body);
    if (!r.ok) {
      enrolProblem(r.error, form);
      return;
    }
    afterEnrolment(r.data);
  }

  var LOGIN_MESSAGES = {
    AUTH_INVALID_CREDENTIALS: 'The email address or password is not right.',
  };

  async function loginPage() {
    var error = $('error');
    if (error.textContent.trim()) {
      error.focus();
    }
    var loginForm = $('login-form');
    onSubmit(loginForm, async function (form) {
      show($('resend'), false);
      var r = await api('POST', '/auth/login', { email: value(form, 'email'), password: value(form, 'password') });
      if (r.ok) {
        afterSignIn(r);
        return;
      }
      if (r.error.code === 'EMAIL_NOT_VERIFIED') {
        show($('resend'), true);
        showError('Verify your email address first: open the link we emailed you.');
        return;
      }
      form.elements.namedItem('password').value = '';
      showProblem(r.error, form, LOGIN_MESSAGES);
    });
    $('resend-button').addEventListener('click', async function () {
      var r = await api('POST', '/auth/verify-email/resend', { email: value(loginForm, 'email') });
      if (r.ok) {
        show($('resend'), false);
        showNotice('If the address has an account waiting for verification, a new link is on its way.', true);
      } else {
        showProblem(r.error, loginForm);
      }
    });

    onSubmit($('challenge-form'), async function (form) {
      var code = form.elements.namedItem('code');
      await resolveStep({ code: code.value.trim() }, 'That code is not right.', code);
    });
    onClick($('passkey-button'), confirmWithPasskey);
    onClick($('enrol-totp-start'), enrolTotpStart);
    onSubmit($('enrol-totp-form'), enrolTotpConfirm);
    onSubmit($('enrol-passkey-form'), enrolPasskey);
    $('recovery-continue').addEventListener('click', function () {
      afterEnrolment(enrolled);
    });

    onSubmit($('initial-password-form'), async function (form) {
      if (!passwordsMatch(form)) {
        return;
      }
      var body = { newPassword: value(form, 'password') };
      if (pendingToken) {
        body.pendingToken = pendingToken;
      }
      var r = await api('POST', '/auth/set-initial-password', body);
      if (r.ok) {
        go(nextPath());
        return;
      }
      if (r.error.code === 'AUTH_INVALID_CREDENTIALS') {
        backToLogin('This sign-in has expired. Sign in again.');
        return;
      }
      showProblem(r.error, form);
    });

    if (params().get('resume') === '1') {
      var pending = await api('GET', '/auth/pending');
      if (pending.ok && pending.status === 200 && pending.data) {
        startStep(pending.data.challengeType, pending.data.uiHint, pending.data.attemptsRemaining);
      } else {
        showError('This sign-in is no longer waiting for you. Sign in again.');
      }
    }

    var ui = await loadLoginUi();
    var providers = ui.ok && ui.data && Array.isArray(ui.data.providers) ? ui.data.providers : [];
    var list = $('provider-list');
    providers.forEach(function (p) {
      var href = p && typeof p.href === 'string' ? p.href : '';
      if (!p || typeof p.label !== 'string') {
        return;
      }
      if (p.component === 'magic-link' && !href) {
        // The magic-link plugin: its form is on the page, shown when the plugin is installed.
        show($('magic-form'), true);
        return;
      }
      var li = document.createElement('li');
      if (p.component === 'passkey-login' && !href) {
        if (!passkeysSupported()) {
          return;
        }
        var button = document.createElement('button');
        button.type = 'button';
        button.id = 'passkey-login';
        button.textContent = p.label;
        onClick(button, signInWithPasskey);
        li.appendChild(button);
      } else if (/^\/(?![/\\])/.test(href)) {
        var a = document.createElement('a');
        a.className = 'button';
        a.href = href;
        a.textContent = p.label;
        li.appendChild(a);
      } else {
        return;
      }
      list.appendChild(li);
    });
    show($('providers'), list.children.length > 0 || !$('magic-form').hidden);
    onSubmit($('magic-form'), async function (form) {
      var r = await api('POST', '/plugins/magic-link/request', { email: value(form, 'email'), next: nextPath() });
      if (r.ok) {
        showNotice(
          (r.data && r.data.message) || 'If the address can sign in, a link is on its way. It works once.',
          true,
        );
        return;
      }
      showProblem(r.error, form);
    });
  }

  // ---- /admin/forgot-password, /admin/reset-password, /admin/verify-email, /admin/accept-invite

  var INVALID_LINK = 'This link is invalid, used or expired. Ask for a new one.';

  function finished(form, message) {
    show(form, false);
    show($('intro'), false);
    show($('done'), true);
    showNotice(message, true);
  }

  function forgotPasswordPage() {
    onSubmit($('forgot-form'), async function (form) {
      var r = await api('POST', '/auth/forgot-password', { email: value(form, 'email') });
      if (r.ok) {
        showNotice(
          (r.data && r.data.message) || 'If the address has an account, a link to choose a new password is on its way.',
          true,
        );
        return;
      }
      showProblem(r.error, form);
    });
  }

  function resetPasswordPage() {
    var token = takeToken();
    onSubmit($('reset-form'), async function (form) {
      if (!passwordsMatch(form)) {
        return;
      }
      var r = await api('POST', '/auth/reset-password', { token: token, password: value(form, 'password') });
      if (r.ok) {
        finished(form, 'Your password is changed. Sign in with the new one.');
        return;
      }
      showProblem(r.error, form, { INVALID_INPUT: INVALID_LINK });
    });
  }

  function verifyEmailPage() {
    var token = takeToken();
    var form = $('verify-form');
    onSubmit(form, async function () {
      var r = await api('POST', '/auth/verify-email', { token: token });
      if (r.ok) {
        finished(form, 'Your email address is verified. You can sign in now.');
        return;
      }
      showProblem(r.error, form, { INVALID_INPUT: INVALID_LINK });
    });
  }

  function acceptInvitePage() {
    var token = takeToken();
    onSubmit($('invite-form'), async function (form) {
      if (!passwordsMatch(form)) {
        return;
      }
      var body = { token: token, password: value(form, 'password') };
      var name = value(form, 'name').trim();
      if (name) {
        body.name = name;
      }
      var r = await api('POST', '/auth/accept-invite', body);
      if (r.ok) {
        finished(form, 'Your account is ready. Sign in with your email address and the new password.');
        return;
      }
      showProblem(r.error, form, { INVALID_INPUT: 'This invitation is invalid, used or expired. Ask for a new one.' });
    });
  }

  // ---- /admin: who am I, sign out, API keys, passkeys, two-step verification

  function day(iso) {
    return iso ? new Date(iso).toLocaleDateString() : '—';
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : '—';
  }

  function cell(row, text) {
    var td = document.createElement('td');
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function actionButton(text, label, handler) {
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = text;
    button.setAttribute('aria-label', label);
    onClick(button, handler);
    return button;
  }

  // ---- sessions (GET /auth/sessions): end one, or all but this one

  async function loadSessions() {
    var r = await authed('GET', '/auth/sessions');
    if (!r) {
      return;
    }
    if (!r.ok) {
      show($('sessions'), false);
      return;
    }
    show($('sessions'), true);
    var body = $('sessions-body');
    body.textContent = '';
    var items = (r.data && r.data.items) || [];
    var others = 0;
    items.forEach(function (s) {
      var row = document.createElement('tr');
      var agent = document.createElement('th');
      agent.scope = 'row';
      agent.className = 'agent';
      agent.textContent = s.userAgent || 'Unknown';
      row.appendChild(agent);
      cell(row, s.ip || '—');
      cell(row, when(s.createdAt));
      cell(row, when(s.lastUsedAt));
      var actions = cell(row, '');
      if (s.current) {
        var mark = document.createElement('strong');
        mark.textContent = 'This device';
        actions.appendChild(mark);
      } else {
        others += 1;
        var label = 'End the session of ' + (s.userAgent || 'an unknown browser') + ', last used ' + when(s.lastUsedAt);
        actions.appendChild(
          actionButton('End', label, function () {
            return endSession(s);
          }),
        );
      }
      body.appendChild(row);
    });
    show($('sessions-end-others'), others > 0);
  }

  async function endSession(s) {
    var r = await authed('DELETE', '/auth/sessions/' + encodeURIComponent(s.id));
    if (!r) {
      return;
    }
    if (!r.ok && r.status !== 404) {
      showProblem(r.error);
      return;
    }
    await loadSessions();
    showNotice(r.ok ? 'The session is ended: that device is signed out.' : 'That session had ended already.', true);
  }

  async function endOtherSessions() {
    var r = await authed('DELETE', '/auth/sessions');
    if (!r) {
      return;
    }
    if (!r.ok) {
      showProblem(r.error);
      return;
    }
    await loadSessions();
    var n = r.data && typeof r.data.ended === 'number' ? r.data.ended : 0;
    showNotice(
      (n === 1 ? '1 other session is ended.' : n + ' other sessions are ended.') + ' You are still signed in here.',
      true,
    );
  }

  async function loadKeys() {
    var r = await authed('GET', '/api-keys?limit=100');
    if (!r) {
      return;
    }
    if (!r.ok) {
      show($('keys'), false);
      return;
    }
    show($('keys'), true);
    var body = $('keys-body');
    body.textContent = '';
    var items = (r.data && r.data.items) || [];
    items.forEach(function (key) {
      var row = document.createElement('tr');
      var name = document.createElement('th');
      name.scope = 'row';
      name.textContent = key.name;
      row.appendChild(name);
      cell(row, key.keyPrefix + '…');
      var scoped = Array.isArray(key.scopes) && key.scopes.length > 0;
      cell(row, key.type + (scoped ? ' (scopes: ' + key.scopes.join(', ') + ')' : ''));
      cell(row, key.status);
      cell(row, day(key.expiresAt));
      cell(row, day(key.lastUsedAt));
      var actions = cell(row, '');
      actions.className = 'actions';
      if (key.status === 'active') {
        var rotate = document.createElement('button');
        rotate.type = 'button';
        rotate.textContent = 'Rotate';
        rotate.setAttribute('aria-label', 'Rotate the key ' + key.name);
        rotate.addEventListener('click', function () {
          startRotation(key, rotate);
        });
        actions.appendChild(rotate);
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Revoke';
        button.setAttribute('aria-label', 'Revoke the key ' + key.name);
        button.addEventListener('click', function () {
          revokeKey(key);
        });
        actions.appendChild(button);
      }
      body.appendChild(row);
    });
    show($('keys-table'), items.length > 0);
    show($('keys-empty'), items.length === 0);
  }

  var rotating = null;

  /** Rotate on a key's row: the form asking how long the old value keeps working. */
  function startRotation(key, button) {
    clearMessages();
    rotating = { key: key, button: button };
    // A value shown before leaves the page: one new value at a time.
    show($('key-created'), false);
    $('key-value').value = '';
    $('key-rotate-title').textContent = 'Rotate the key ' + key.name;
    $('key-rotate-form').reset();
    show($('key-rotate-form'), true);
    $('key-rotate-grace').focus();
  }

  function endRotation(refocus) {
    show($('key-rotate-form'), false);
    var was = rotating;
    rotating = null;
    if (refocus && was && document.body.contains(was.button)) {
      was.button.focus();
    }
  }

  /** The new value, shown once (as a new key is). */
  function showNewKey(key, label) {
    show($('key-created'), true);
    $('key-value-label').textContent = label;
    var out = $('key-value');
    out.value = key;
    out.focus();
    out.select();
  }

  async function rotateKey(form) {
    if (!rotating) {
      return;
    }
    var key = rotating.key;
    var grace = Number(value(form, 'graceSeconds')) || 0;
    var r = await authed('POST', '/api-keys/' + encodeURIComponent(key.id) + '/rotate', { graceSeconds: grace });
    if (!r) {
      return;
    }
    if (!r.ok) {
      showProblem(r.error, form);
      return;
    }
    endRotation(false);
    await loadKeys();
    showNewKey(r.data.key, 'The new value of ' + r.data.item.name + ': copy it now, it is not shown again');
    var old = grace
      ? 'The old value keeps working for ' + (grace === 3600 ? '1 hour' : grace / 3600 + ' hours') + '.'
      : 'The old value no longer works.';
    showNotice('The key ' + r.data.item.name + ' is rotated. Copy the new value now: it is not shown again. ' + old, false);
  }

  async function revokeKey(key) {
    if (!window.confirm('Revoke the key ' + key.name + '? Programs using it stop working.')) {
      return;
    }
    var r = await authed('DELETE', '/api-keys/' + encodeURIComponent(key.id));
    if (!r) {
      return;
    }
    if (!r.ok) {
      showProblem(r.error);
      return;
    }
    show($('key-created'), false);
    $('key-value').value = '';
    endRotation(false);
    await loadKeys();
    showNotice('The key ' + key.name + ' is revoked.', true);
  }

  /** The passkeys section: shown when the plugin answers (its routes are 404 without it). */
  async function loadPasskeys() {
    var r = await authed('GET', PASSKEYS + '/credentials?limit=100');
    if (!r) {
      return;
    }
    if (!r.ok) {
      show($('passkeys'), false);
      return;
    }
    show($('passkeys'), true);
    // A browser without WebAuthn lists and deletes passkeys, but cannot add one.
    show($('passkey-add'), passkeysSupported());
    var body = $('passkeys-body');
    body.textContent = '';
    var items = (r.data && r.data.items) || [];
    items.forEach(function (passkey) {
      var row = document.createElement('tr');
      var name = document.createElement('th');
      name.scope = 'row';
      name.textContent = passkey.name;
      row.appendChild(name);
      cell(row, day(passkey.createdAt));
      cell(row, passkey.lastUsedAt ? day(passkey.lastUsedAt) : 'Never');
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Delete';
      button.setAttribute('aria-label', 'Delete the passkey ' + passkey.name);
      button.addEventListener('click', function () {
        removePasskey(passkey);
      });
      cell(row, '').appendChild(button);
      body.appendChild(row);
    });
    show($('passkeys-table'), items.length > 0);
    show($('passkeys-empty'), items.length === 0);
  }

  async function removePasskey(passkey) {
    if (!window.confirm('Delete the passkey ' + passkey.name + '? It cannot sign you in any more.')) {
      return;
    }
    var r = await authed('DELETE', PASSKEYS + '/credentials/' + encodeURIComponent(passkey.id));
    if (!r) {
      return;
    }
    if (!r.ok) {
      showProblem(r.error);
      return;
    }
    await loadPasskeys();
    showNotice('The passkey ' + passkey.name + ' is deleted.', true);
  }

  /** register/options, the browser's prompt to create a passkey, register/verify. */
  async function addPasskey(form) {
    var options = await authed('POST', PASSKEYS + '/register/options', {});
    if (!options) {
      return;
    }
    if (!options.ok) {
      showProblem(options.error, form);
      return;
    }
    var asked = await askPasskey('create', options.data);
    if (!asked.ok) {
      showError(asked.message);
      return;
    }
    var body = { response: asked.credential };
    var name = value(form, 'name').trim();
    if (name) {
      body.name = name;
    }
    var r = await authed('POST', PASSKEYS + '/register/verify', body);
    if (!r) {
      return;
    }
    if (!r.ok) {
      showProblem(r.error, form);
      return;
    }
    form.reset();
    await loadPasskeys();
    showNotice('The passkey ' + r.data.item.name + ' is added.', true);
  }

  async function loadTotp() {
    var r = await authed('GET', '/plugins/totp/status');
    if (!r || !r.ok || !r.data) {
      show($('totp'), false);
      return;
    }
    show($('totp'), true);
    var s = r.data;
    $('totp-state').textContent = s.enabled
      ? 'On. ' + s.recoveryCodesRemaining + ' recovery codes left.'
      : 'Off. Turn it on to ask for a code from an authenticator app at every sign-in.';
    show($('totp-start'), !s.enabled);
    show($('totp-disable-form'), s.enabled);
    if (s.enabled) {
      show($('totp-enrol'), false);
    }
  }

  async function homePage() {
    var session = await authed('GET', '/auth/session');
    if (!session) {
      return;
    }
    if (!session.ok) {
      showProblem(session.error);
      return;
    }
    var user = session.data.user;
    $('who-text').textContent = 'You are signed in as ' + (user.name ? user.name + ' (' + user.email + ')' : user.email) + '.';

    $('sign-out').addEventListener('click', async function () {
      var r = await api('POST', '/auth/logout', {});
      if (r.ok) {
        go('/admin/login');
      } else {
        showProblem(r.error);
      }
    });

    onSubmit($('key-form'), async function (form) {
      var body = { name: value(form, 'name').trim(), type: value(form, 'type') };
      var description = value(form, 'description').trim();
      if (description) {
        body.description = description;
      }
      var expires = value(form, 'expiresAt');
      if (expires) {
        body.expiresAt = new Date(expires + 'T23:59:59Z').toISOString();
      }
      var scopes = value(form, 'scopes')
        .split(/[\s,]+/)
        .filter(function (slug) {
          return slug !== '';
        });
      if (scopes.length) {
        body.scopes = scopes;
      }
      var r = await authed('POST', '/api-keys', body);
      if (!r) {
        return;
      }
      if (!r.ok) {
        showProblem(r.error, form);
        return;
      }
      form.reset();
      endRotation(false);
      await loadKeys();
      showNewKey(r.data.key, 'Your new key: copy it now, it is not shown again');
      showNotice('The key ' + r.data.item.name + ' is created. Copy it now: it is not shown again.', false);
    });
    onSubmit($('key-rotate-form'), rotateKey);
    $('key-rotate-cancel').addEventListener('click', function () {
      endRotation(true);
    });
    onClick($('sessions-end-others'), endOtherSessions);
    $('key-copy').addEventListener('click', function () {
      var text = $('key-value').value;
      if (navigator.clipboard) {
        navigator.clipboard.writeText(text).then(
          function () {
            showNotice('The key is copied.', false);
          },
          function () {
            showNotice('Copy the key from the field above.', false);
          },
        );
      }
    });

    onSubmit($('passkey-form'), addPasskey);

    $('totp-start').addEventListener('click', async function () {
      clearMessages();
      var r = await authed('POST', '/plugins/totp/enroll', {});
      if (!r) {
        return;
      }
      if (!r.ok) {
        showProblem(r.error);
        return;
      }
      $('totp-secret').textContent = r.data.secret;
      $('totp-qr').src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(r.data.qrSvg);
      show($('totp-enrol'), true);
      show($('totp-recovery'), false);
      $('totp-enrol-title').focus();
    });
    onSubmit($('totp-confirm-form'), async function (form) {
      var r = await authed('POST', '/plugins/totp/enroll/confirm', { code: value(form, 'code').trim() });
      if (!r) {
        return;
      }
      if (!r.ok) {
        showProblem(r.error, form, { INVALID_INPUT: 'That code is not right. Try the code the app shows now.' });
        return;
      }
      form.reset();
      show($('totp-enrol'), false);
      var codes = $('totp-codes');
      codes.textContent = '';
      (r.data.recoveryCodes || []).forEach(function (c) {
        var li = document.createElement('li');
        li.textContent = c;
        codes.appendChild(li);
      });
      show($('totp-recovery'), true);
      await loadTotp();
      showNotice('Two-step verification is on.', false);
      $('totp-recovery-title').focus();
    });
    onSubmit($('totp-disable-form'), async function (form) {
      var r = await authed('POST', '/plugins/totp/disable', { code: value(form, 'code').trim() });
      if (!r) {
        return;
      }
      if (!r.ok) {
        showProblem(r.error, form, { INVALID_INPUT: 'That code is not right.' });
        return;
      }
      form.reset();
      show($('totp-recovery'), false);
      await loadTotp();
      showNotice('Two-step verification is off.', true);
    });

    await loadSessions();
    await loadTotp();
    await loadPasskeys();
    await loadKeys();
  }

  var PAGES = {
    login: loginPage,
    'forgot-password': forgotPasswordPage,
    'reset-password': resetPasswordPage,
    'verify-email': verifyEmailPage,
    'accept-invite': acceptInvitePage,
    home: homePage,
  };

  function start() {
    var page = PAGES[document.body.getAttribute('data-page')];
    if (!page) {
      return;
    }
    var error = $('error');
    if (error && error.textContent.trim() && document.body.getAttribute('data-page') !== 'login') {
      error.focus();
    }
    Promise.resolve(page()).catch(function () {
      showError('Something went wrong. Reload the page and try again.');
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
`;

export const PAGES_CSS = String.raw`:root {
  color-scheme: light;
  --text: #1a1a1a;
  --muted: #4a4a4a;
  --bg: #ffffff;
  --panel: #f5f6f8;
  --accent: #1d4ed8;
  --accent-text: #ffffff;
  --error: #a50e0e;
  --error-bg: #fdecec;
  --ok: #13612e;
  --ok-bg: #e8f5ec;
  --border: #767676;
}
*,
*::before,
*::after {
  box-sizing: border-box;
}
body {
  margin: 0;
  background: var(--panel);
  color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
}
main {
  max-width: 44rem;
  margin: 2rem auto;
  padding: 1.5rem 2rem 2rem;
  background: var(--bg);
  border-radius: 8px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.15);
}
h1 {
  margin-top: 0;
  font-size: 1.75rem;
}
h2 {
  font-size: 1.3rem;
  margin-top: 2rem;
}
h3 {
  font-size: 1.1rem;
  margin-top: 1.75rem;
}
h4 {
  font-size: 1rem;
}
a {
  color: var(--accent);
}
:focus-visible {
  outline: 3px solid var(--accent);
  outline-offset: 2px;
}
.field {
  margin: 0 0 1rem;
}
label {
  display: block;
  font-weight: 600;
  margin-bottom: 0.25rem;
}
input,
select {
  width: 100%;
  max-width: 28rem;
  padding: 0.5rem 0.6rem;
  font: inherit;
  color: inherit;
  background: var(--bg);
  border: 1px solid var(--border);
  border-radius: 4px;
}
input[aria-invalid='true'] {
  border-color: var(--error);
  border-width: 2px;
}
.hint {
  margin: 0.25rem 0 0;
  color: var(--muted);
  font-size: 0.9rem;
}
button,
.button {
  display: inline-block;
  padding: 0.5rem 1rem;
  font: inherit;
  font-weight: 600;
  color: var(--accent-text);
  background: var(--accent);
  border: 2px solid var(--accent);
  border-radius: 4px;
  cursor: pointer;
  text-decoration: none;
}
button:disabled {
  opacity: 0.6;
  cursor: progress;
}
td button {
  padding: 0.2rem 0.6rem;
}
td.actions button {
  display: block;
  margin: 0.15rem 0;
}
button.secondary {
  color: var(--accent);
  background: var(--bg);
  margin-left: 0.5rem;
}
dialog {
  max-width: min(28rem, calc(100vw - 2rem));
  border: 1px solid var(--border, #767676);
  border-radius: 0.5rem;
  color: inherit;
  background: var(--bg);
}
dialog::backdrop {
  background: rgb(0 0 0 / 0.5);
}
dialog h2 {
  margin-top: 0;
}
.field-error {
  margin: 0.25rem 0 0;
  color: var(--error);
  font-weight: 600;
}
.field-error:empty {
  display: none;
}
th.agent {
  font-weight: normal;
  overflow-wrap: anywhere;
}
#sessions-end-others {
  margin-bottom: 1rem;
}
.alert,
.notice {
  margin: 0 0 1rem;
  padding: 0.75rem 1rem;
  border-radius: 4px;
}
.alert {
  color: var(--error);
  background: var(--error-bg);
  border-left: 4px solid var(--error);
}
.notice {
  color: var(--ok);
  background: var(--ok-bg);
  border-left: 4px solid var(--ok);
}
.alert:empty,
.notice:empty {
  padding: 0;
  margin: 0;
  border: 0;
}
.alert p,
.notice p {
  margin: 0;
}
.alert ul {
  margin: 0.5rem 0 0;
}
.providers {
  list-style: none;
  padding: 0;
}
.providers li {
  margin: 0 0 0.5rem;
}
table {
  width: 100%;
  border-collapse: collapse;
  margin: 1rem 0;
  font-size: 0.95rem;
}
th,
td {
  text-align: left;
  padding: 0.4rem 0.5rem;
  border-bottom: 1px solid #d0d0d0;
}
code,
.codes {
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
.codes {
  columns: 2;
}
#key-created {
  margin-top: 1.5rem;
}
.qr {
  display: block;
  margin: 1rem 0;
  background: #ffffff;
}
.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
[hidden] {
  display: none !important;
}
`;
