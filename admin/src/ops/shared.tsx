import { useEffect, useRef } from 'react';
import type { components } from '../../../src/client';
import { when } from '../account/shared';
import { useMessages } from '../auth/messages';

export type Webhook = components['schemas']['Webhook'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookDeliveryDetail = components['schemas']['WebhookDeliveryDetail'];
export type AuditEntry = components['schemas']['AuditEntry'];
/** What an endpoint may subscribe to: an event type, or `*` for all. */
export type Subscribable = components['schemas']['CreateWebhookDto']['events'][number];
export type WebhookEvent = Exclude<Subscribable, '*'>;

export { holds } from '../api';

/**
 * The event types of the webhook API (the create body's `events`), by family, each with what it
 * means. A `Record` over the API's type: an event type the API adds and this list lacks fails the
 * type check.
 */
const EVENT_MEANING: Record<WebhookEvent, string> = {
  'entry.created': 'An entry is created',
  'entry.updated': 'An entry is changed',
  'entry.deleted': 'An entry is deleted',
  'entry.published': 'An entry is published',
  'entry.unpublished': 'An entry is unpublished',
  'single.updated': 'A single is changed',
  'single.published': 'A single is published',
  'media.created': 'A file is uploaded',
  'media.deleted': 'A file is deleted',
  'user.created': 'A user is created',
  'user.updated': 'A user is changed',
  'user.deleted': 'A user is deleted',
  'user.deactivated': 'A user is deactivated',
  'user.activated': 'A user is activated',
  'user.password-changed': 'A user’s password changes',
  'schema.applied': 'A schema change is applied',
  'webhook.test': 'A test event (Send test)',
};

export const WEBHOOK_EVENTS = Object.keys(EVENT_MEANING) as WebhookEvent[];

export function meaningOf(event: WebhookEvent): string {
  return EVENT_MEANING[event];
}

const FAMILY_NAMES: Record<string, string> = {
  entry: 'Entries',
  single: 'Singles',
  media: 'Media',
  user: 'Users',
  schema: 'Schema',
  webhook: 'Tests',
};

/** The event types grouped by their family (`entry`, `user`...), in the API's order. */
export const EVENT_FAMILIES: Array<{ name: string; events: WebhookEvent[] }> = [
  ...new Set(WEBHOOK_EVENTS.map((e) => e.split('.')[0])),
].map((family) => ({
  name: FAMILY_NAMES[family] ?? family,
  events: WEBHOOK_EVENTS.filter((e) => e.startsWith(`${family}.`)),
}));

/**
 * The audit log's event names (docs/administration.md, "Audit log"): the API takes any name, so the
 * Event filter offers these and any other name seen in the log.
 */
export const AUDIT_EVENTS = [
  'setup',
  'register',
  'login-succeeded',
  'login-failed',
  'logout',
  'session-ended',
  'refresh-reused',
  'reauthenticated',
  'password-changed',
  'password-reset',
  'mfa-enrolled',
  'mfa-disabled',
  'mfa-locked',
  'api-key-created',
  'api-key-rotated',
  'api-key-revoked',
  'user-created',
  'user-updated',
  'user-deactivated',
  'user-deleted',
  'role-changed',
  'permission-changed',
  'settings-changed',
  'schema-applied',
  'entry-published',
  'entry-unpublished',
  'entry-restored',
  'entry-schedule-failed',
];

export { when };

/** A moment in a `<time>` element (its machine-readable value kept), or a dash. */
export function Time({ iso }: { iso: string | null | undefined }) {
  return iso ? <time dateTime={iso}>{when(iso)}</time> : <>—</>;
}

/** A delivery's state as a coloured word. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

/**
 * Values handed from one screen to the next once (a new endpoint's secret, a notice): kept in
 * memory only, so a reload or a later visit never shows them again.
 */
const handed = new Map<string, { secret?: string; notice?: string }>();
export function hand(key: string, value: { secret?: string; notice?: string }): void {
  handed.set(key, value);
}
export function peek(key: string): { secret?: string; notice?: string } | undefined {
  return handed.get(key);
}
export function forget(key: string): void {
  handed.delete(key);
}

/** Sets the document's title while the screen is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · svc`;
  }, [title]);
}

/**
 * A signing secret, shown once (created or rotated) as text with a button that copies it. Its
 * heading takes the focus when it appears, so a screen reader reads it and the keyboard starts there.
 */
export function SecretPanel({ secret, onDone }: { secret: string; onDone: () => void }) {
  const messages = useMessages();
  const heading = useRef<HTMLHeadingElement>(null);
  const value = useRef<HTMLElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [secret]);
  const select = () => {
    const selection = window.getSelection();
    if (value.current && selection) {
      const range = document.createRange();
      range.selectNodeContents(value.current);
      selection.removeAllRanges();
      selection.addRange(range);
    }
  };
  return (
    <section id="webhook-secret-panel" className="secret" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title" ref={heading} tabIndex={-1}>
        Signing secret
      </h2>
      <p>
        Copy it now: it is not shown again. The receiver checks each request’s signature with it (Standard
        Webhooks).
      </p>
      <p>
        <code id="webhook-secret" ref={value} className="secret-value">
          {secret}
        </code>
      </p>
      <div className="actions">
        <button
          type="button"
          className="button primary"
          onClick={() => {
            const copied =
              navigator.clipboard?.writeText(secret) ?? Promise.reject(new Error('no clipboard'));
            copied.then(
              () => messages.showNotice('The secret is copied.'),
              () => {
                select();
                messages.showNotice('The secret is selected: copy it with your keyboard or menu.');
              },
            );
          }}
        >
          Copy secret
        </button>
        <button type="button" className="button" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}
