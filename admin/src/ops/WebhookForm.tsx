import { useState } from 'react';
import type { components } from '../../../src/client';
import { useDefinitions } from '../api';
import { Field, type FormState, text, useForm, useMessages } from '../auth/messages';
import { EVENT_FAMILIES, meaningOf, type Webhook, WEBHOOK_EVENTS, type WebhookEvent } from './shared';

export type WebhookBody = components['schemas']['CreateWebhookDto'];

/**
 * An endpoint's fields: name, URL, description, its events (each type a checkbox, or "All events"),
 * the collections that narrow its entry events, and whether it is enabled. `onSubmit` gets the
 * body; the API's refusals are marked on their fields by the caller (`report(e, form)`).
 */
export function WebhookForm({
  initial,
  readOnly = false,
  submitLabel = 'Save',
  onSubmit,
}: {
  initial?: Webhook;
  readOnly?: boolean;
  submitLabel?: string;
  onSubmit: (body: WebhookBody, form: FormState) => Promise<void>;
}) {
  const form = useForm();
  const messages = useMessages();
  const definitions = useDefinitions();
  const [all, setAll] = useState(initial?.events.includes('*') ?? false);
  const [events, setEvents] = useState<Set<WebhookEvent>>(
    () => new Set((initial?.events ?? []).filter((e): e is WebhookEvent => e !== '*')),
  );
  const [collections, setCollections] = useState<string[]>(initial?.collections ?? []);
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  // The collections whose entry events an endpoint can narrow to: the defined ones (media's events
  // are media.*) and any the endpoint names that is not defined (any more).
  const defined = (definitions.data?.collections ?? [])
    .filter((c) => c.slug !== 'media')
    .map((c) => ({ slug: c.slug, label: c.labels.plural }));
  const choices = [
    ...defined,
    ...collections.filter((s) => !defined.some((d) => d.slug === s)).map((slug) => ({ slug, label: slug })),
  ];
  const eventsError = form.invalid.events;
  const collectionsError = form.invalid.collections;
  return (
    <form
      id="webhook-form"
      className="editor"
      aria-labelledby="webhook-form-title"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        if (!all && events.size === 0) {
          form.markInvalid('events', 'Choose at least one event, or All events.');
          messages.showError('Choose at least one event, or All events.');
          return;
        }
        const description = text(data, 'description').trim();
        await onSubmit(
          {
            name: text(data, 'name').trim(),
            url: text(data, 'url').trim(),
            description: description || null,
            events: all ? ['*'] : WEBHOOK_EVENTS.filter((e) => events.has(e)),
            collections: collections.length ? collections : null,
            enabled,
          },
          form,
        );
      })}
    >
      <h2 id="webhook-form-title" className={initial ? undefined : 'visually-hidden'}>
        {initial ? 'Settings' : 'The new webhook'}
      </h2>
      <fieldset className="plain" disabled={readOnly}>
        <Field
          id="webhook-name"
          name="name"
          label="Name"
          maxLength={200}
          defaultValue={initial?.name}
          errors
          form={form}
        />
        <Field
          id="webhook-url"
          name="url"
          label="URL"
          type="url"
          maxLength={2048}
          spellCheck={false}
          autoCapitalize="none"
          hint="Where the events are sent: an http or https address."
          defaultValue={initial?.url}
          errors
          form={form}
        />
        <Field
          id="webhook-description"
          name="description"
          label="Description (optional)"
          required={false}
          maxLength={1000}
          defaultValue={initial?.description ?? ''}
          errors
          form={form}
        />
        <fieldset
          className="choices"
          aria-describedby={`webhook-events-hint${eventsError !== undefined ? ' webhook-events-error' : ''}`}
        >
          <legend>Events</legend>
          <p id="webhook-events-hint" className="hint">
            The event types sent to this endpoint.
          </p>
          <div className="field checkbox">
            <input
              id="webhook-all-events"
              type="checkbox"
              checked={all}
              aria-invalid={eventsError !== undefined ? true : undefined}
              onChange={(e) => setAll(e.target.checked)}
            />
            <label htmlFor="webhook-all-events">All events</label>
            <span className="hint">(every type, and any added later)</span>
          </div>
          <div className="families">
            {EVENT_FAMILIES.map((family) => (
              <fieldset key={family.name} className="family" disabled={all}>
                <legend>{family.name}</legend>
                {family.events.map((event) => (
                  <div key={event} className="check">
                    <input
                      id={`webhook-event-${event}`}
                      type="checkbox"
                      name="events"
                      value={event}
                      checked={all || events.has(event)}
                      aria-describedby={`webhook-event-${event}-meaning`}
                      aria-invalid={eventsError !== undefined ? true : undefined}
                      onChange={(e) => {
                        const next = new Set(events);
                        if (e.target.checked) {
                          next.add(event);
                        } else {
                          next.delete(event);
                        }
                        setEvents(next);
                      }}
                    />
                    <label htmlFor={`webhook-event-${event}`}>
                      <code>{event}</code>
                    </label>
                    <span id={`webhook-event-${event}-meaning`} className="hint">
                      {meaningOf(event)}
                    </span>
                  </div>
                ))}
              </fieldset>
            ))}
          </div>
          <p id="webhook-events-error" className="field-error">
            {eventsError}
          </p>
        </fieldset>
        {choices.length > 0 && (
          <fieldset
            className="choices"
            aria-describedby={`webhook-collections-hint${collectionsError !== undefined ? ' webhook-collections-error' : ''}`}
          >
            <legend>Collections</legend>
            <p id="webhook-collections-hint" className="hint">
              Only the entry events of these collections are sent. None ticked: every collection’s.
            </p>
            <div className="collections">
              {choices.map((c) => (
                <div key={c.slug} className="check">
                  <input
                    id={`webhook-collection-${c.slug}`}
                    type="checkbox"
                    name="collections"
                    value={c.slug}
                    checked={collections.includes(c.slug)}
                    aria-invalid={collectionsError !== undefined ? true : undefined}
                    onChange={(e) =>
                      setCollections(
                        e.target.checked ? [...collections, c.slug] : collections.filter((s) => s !== c.slug),
                      )
                    }
                  />
                  <label htmlFor={`webhook-collection-${c.slug}`}>{c.label}</label>
                </div>
              ))}
            </div>
            <p id="webhook-collections-error" className="field-error">
              {collectionsError}
            </p>
          </fieldset>
        )}
        <div className="field checkbox">
          <input
            id="webhook-enabled"
            type="checkbox"
            checked={enabled}
            aria-describedby="webhook-enabled-hint"
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <label htmlFor="webhook-enabled">Enabled</label>
          <span id="webhook-enabled-hint" className="hint">
            A disabled endpoint gets nothing; events while it is disabled are never sent to it.
          </span>
        </div>
        <div className="actions">
          <button type="submit" className="button primary">
            {submitLabel}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
