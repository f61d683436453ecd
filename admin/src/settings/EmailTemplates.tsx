import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { components } from '../../../src/client';
// The service's own renderer (pure functions): an unsaved draft is previewed exactly as it will be sent.
import { renderTemplate } from '../../../src/modules/email/email-render';
import { ApiError, api, holds, type Session, unwrap } from '../api';
import { when } from '../account/shared';
import {
  Field,
  type FormState,
  Regions,
  text,
  useAction,
  useForm,
  useMessages,
  WithMessages,
} from '../auth/messages';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import { forget, hand, peek } from '../ops/shared';
import { AreaField, useDocumentTitle, useSettingsReport } from './shared';

type Template = components['schemas']['EmailTemplate'];
type Layout = components['schemas']['EmailLayout'];
type Rendered = { subject: string; html: string; text: string };
type Variables = Record<string, string>;

const loadTemplates = async () =>
  (await unwrap(api.GET('/admin/api/email-templates', { params: { query: { limit: 100, sort: 'name' } } })))
    .items;

/** Shows once a notice another screen handed over (a creation, a deletion). */
function useHandedNotice(key: string) {
  const messages = useMessages();
  useEffect(() => {
    const notice = peek(key)?.notice;
    forget(key);
    if (notice) {
      messages.showNotice(notice);
    }
  }, [key, messages]);
}

/** `/settings/email/templates`: the templates of the emails the service and its code send. */
export function EmailTemplates({ session }: { session: Session }) {
  useDocumentTitle('Email templates');
  return (
    <WithMessages>
      <div className="title-row">
        <Title>Email templates</Title>
        {holds(session, 'create-email-templates') && (
          <Link className="button primary" to="/settings/email/templates/new">
            New template
          </Link>
        )}
      </div>
      <p className="hint">
        <code>{'{{name}}'}</code> placeholders take the values given when an email is sent. Every HTML email
        is wrapped in the <Link to="/settings/email/layout">shared layout</Link>.
      </p>
      <TemplateList session={session} />
    </WithMessages>
  );
}

function TemplateList({ session }: { session: Session }) {
  useHandedNotice('email-templates');
  const queryClient = useQueryClient();
  const messages = useMessages();
  const report = useSettingsReport();
  const action = useAction();
  const templates = useQuery({ queryKey: ['email-templates'], queryFn: loadTemplates });
  const canDelete = holds(session, 'delete-email-templates');
  return (
    <>
      <Regions />
      {templates.isPending && <p className="loading">Loading…</p>}
      {templates.error && (
        <p role="alert" className="error">
          {templates.error.message}
        </p>
      )}
      {templates.data && (
        <div className="table-scroll" role="region" aria-labelledby="email-templates-caption" tabIndex={0}>
          <table id="email-templates-table">
            <caption id="email-templates-caption" className="visually-hidden">
              Email templates
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Subject</th>
                <th scope="col">Changed</th>
                {canDelete && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {templates.data.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <Link to={`/settings/email/templates/${t.id}`}>{t.name}</Link>
                  </th>
                  <td>
                    <code>{t.slug}</code>
                  </td>
                  <td className="wrap">{t.subject}</td>
                  <td>
                    <time dateTime={t.updatedAt}>{when(t.updatedAt)}</time>
                  </td>
                  {canDelete && (
                    <td>
                      <ConfirmButton
                        label="Delete"
                        title="Delete this email template"
                        isDisabled={action.busy}
                        onConfirm={() =>
                          action.run(async () => {
                            try {
                              await unwrap(
                                api.DELETE('/admin/api/email-templates/{id}', {
                                  params: { path: { id: t.id } },
                                }),
                              );
                              await queryClient.invalidateQueries({ queryKey: ['email-templates'] });
                              messages.showNotice(`The email template ${t.name} is deleted.`);
                            } catch (e) {
                              report(e);
                            }
                          })
                        }
                      >
                        Delete the template “{t.name}” ({t.slug})? Code that sends it by its slug fails after
                        this. This cannot be undone.
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
              {templates.data.length === 0 && (
                <tr>
                  <td colSpan={canDelete ? 5 : 4}>There is no email template yet.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** `/settings/email/templates/new` and `/settings/email/templates/:id`: the editor and its preview. */
export function EmailTemplateEditor({ session }: { session: Session }) {
  const { id = 'new' } = useParams();
  const template = useQuery({
    queryKey: ['email-template', id],
    queryFn: () => unwrap(api.GET('/admin/api/email-templates/{id}', { params: { path: { id } } })),
    enabled: id !== 'new',
  });
  const layout = useQuery({
    queryKey: ['email-layout'],
    queryFn: () => unwrap(api.GET('/admin/api/email-templates/layout')),
  });
  const t = template.data;
  useDocumentTitle(id === 'new' ? 'New email template' : (t?.name ?? 'Email template'));
  const notFound = template.error instanceof ApiError && template.error.status === 404;
  const mayWrite = holds(session, id === 'new' ? 'create-email-templates' : 'update-email-templates');
  return (
    <WithMessages key={id}>
      <p className="crumbs">
        <Link to="/settings/email/templates">Email templates</Link>
      </p>
      <Title>
        {id === 'new'
          ? 'New email template'
          : t
            ? `Email template: ${t.name}`
            : notFound
              ? 'Not found'
              : 'Email template'}
      </Title>
      <Regions />
      {template.isLoading && <p className="loading">Loading…</p>}
      {template.error && (
        <p role="alert" className="error">
          {notFound ? 'There is no such email template.' : template.error.message}
        </p>
      )}
      {(id === 'new' || t) && (
        <TemplateForm
          key={t?.id ?? 'new'}
          saved={t}
          layout={layout.data}
          readOnly={!mayWrite}
          session={session}
        />
      )}
    </WithMessages>
  );
}

/** The placeholders of some template text, in order of first use. */
function placeholders(...sources: string[]): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    for (const m of source.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g)) {
      names.add(m[1]);
    }
  }
  return [...names];
}

/** Sample values for the variables of the built-in emails; others start empty. */
function sampleFor(name: string): string {
  const origin = window.location.origin;
  const samples: Record<string, string> = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    appUrl: origin,
    link: `${origin}/admin/example?token=sample-token`,
    minutes: '15',
  };
  return samples[name] ?? '';
}

/** `value` once it has stayed the same for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function TemplateForm({
  saved,
  layout,
  readOnly,
  session,
}: {
  saved?: Template;
  layout?: Layout;
  readOnly: boolean;
  session: Session;
}) {
  const form = useForm();
  const messages = useMessages();
  // A built-in template keeps its slug (409 CONFLICT, without issues).
  const report = useSettingsReport({}, { CONFLICT: 'slug' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const action = useAction();
  // The parts the preview shows are controlled; name and slug are read from the form at saving.
  const [draft, setDraft] = useState({
    subject: saved?.subject ?? '',
    html: saved?.html ?? '',
    text: saved?.text ?? '',
  });
  const [samples, setSamples] = useState<Variables>({});
  const names = placeholders(
    draft.subject,
    draft.html,
    draft.text,
    layout?.header ?? '',
    layout?.footer ?? '',
  );
  const variables = useMemo(
    () => Object.fromEntries(names.map((n) => [n, samples[n] ?? sampleFor(n)])),
    // `names` is derived from the draft: its joined form is its identity.
    [names.join('\n'), samples],
  );
  const current = useMemo(() => ({ draft, variables }), [draft, variables]);
  const settled = useDebounced(current, 350);
  const unchanged =
    saved !== undefined &&
    settled.draft.subject === saved.subject &&
    settled.draft.html === saved.html &&
    settled.draft.text === (saved.text ?? '');
  // The saved template is rendered by the service's preview route; an unsaved draft in the browser
  // with the same renderer (the route renders only what is stored).
  const served = useQuery({
    queryKey: ['email-template-preview', saved?.id, saved?.updatedAt, settled.variables],
    queryFn: () =>
      unwrap(
        api.POST('/admin/api/email-templates/{id}/preview', {
          params: { path: { id: saved?.id ?? '' } },
          body: { variables: settled.variables },
        }),
      ),
    enabled: unchanged,
    placeholderData: keepPreviousData,
  });
  const local = useMemo<Rendered | undefined>(
    () =>
      unchanged || !layout
        ? undefined
        : renderTemplate(
            { subject: settled.draft.subject, html: settled.draft.html, text: settled.draft.text || null },
            settled.variables,
            layout,
          ),
    [unchanged, layout, settled],
  );
  const preview = unchanged ? served.data : local;
  const pending = settled !== current;
  return (
    <div className="template-editor">
      <form
        id="email-template-form"
        className="editor"
        aria-labelledby="email-template-form-title"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          const body = {
            name: text(data, 'name').trim(),
            slug: text(data, 'slug').trim(),
            subject: draft.subject,
            html: draft.html,
            text: draft.text.trim() ? draft.text : null,
          };
          try {
            if (saved) {
              const r = await unwrap(
                api.PATCH('/admin/api/email-templates/{id}', { params: { path: { id: saved.id } }, body }),
              );
              queryClient.setQueryData(['email-template', saved.id], r.item);
              await queryClient.invalidateQueries({ queryKey: ['email-templates'] });
              messages.showNotice(`The email template ${r.item.name} is saved.`);
            } else {
              const r = await unwrap(api.POST('/admin/api/email-templates', { body }));
              queryClient.setQueryData(['email-template', r.item.id], r.item);
              await queryClient.invalidateQueries({ queryKey: ['email-templates'] });
              hand('email-template', { notice: `The email template ${r.item.name} is created.` });
              await navigate(`/settings/email/templates/${r.item.id}`, { replace: true });
            }
          } catch (e) {
            report(e, form);
          }
        })}
      >
        <h2 id="email-template-form-title">Template</h2>
        <fieldset className="plain" disabled={readOnly}>
          <Field
            id="template-name"
            name="name"
            label="Name"
            maxLength={200}
            defaultValue={saved?.name}
            errors
            form={form}
          />
          <Field
            id="template-slug"
            name="slug"
            label="Slug"
            maxLength={63}
            spellCheck={false}
            autoCapitalize="none"
            defaultValue={saved?.slug}
            hint="How code sends it: lower-case letters, digits and -. The built-in templates keep theirs."
            errors
            form={form}
          />
          <Field
            id="template-subject"
            name="subject"
            label="Subject"
            maxLength={998}
            value={draft.subject}
            onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
            errors
            form={form}
          />
          <AreaField
            id="template-html"
            name="html"
            label="HTML body"
            className="code"
            rows={12}
            required
            spellCheck={false}
            value={draft.html}
            onChange={(e) => setDraft({ ...draft, html: e.target.value })}
            hint="Placeholders are HTML-escaped. The layout’s header and footer are added around it."
            form={form}
          />
          <AreaField
            id="template-text"
            name="text"
            label="Text version (optional)"
            className="code"
            rows={6}
            value={draft.text}
            onChange={(e) => setDraft({ ...draft, text: e.target.value })}
            hint="Empty: made from the HTML body."
            form={form}
          />
          {names.length > 0 && (
            <fieldset className="group samples">
              <legend>Sample values for the preview</legend>
              {names.map((n) => (
                <div className="field" key={n}>
                  <label htmlFor={`sample-${n}`}>{n}</label>
                  <input
                    id={`sample-${n}`}
                    type="text"
                    value={variables[n] ?? ''}
                    onChange={(e) => setSamples({ ...samples, [n]: e.target.value })}
                  />
                </div>
              ))}
            </fieldset>
          )}
          <div className="actions">
            <button type="submit" className="button primary">
              Save
            </button>
            {saved && holds(session, 'delete-email-templates') && (
              <ConfirmButton
                label="Delete"
                title="Delete this email template"
                isDisabled={action.busy}
                onConfirm={() =>
                  action.run(async () => {
                    try {
                      await unwrap(
                        api.DELETE('/admin/api/email-templates/{id}', { params: { path: { id: saved.id } } }),
                      );
                    } catch (e) {
                      report(e);
                      return;
                    }
                    hand('email-templates', { notice: `The email template ${saved.name} is deleted.` });
                    queryClient.removeQueries({ queryKey: ['email-template', saved.id] });
                    await queryClient.invalidateQueries({ queryKey: ['email-templates'] });
                    await navigate('/settings/email/templates');
                  })
                }
              >
                Delete the template “{saved.name}” ({saved.slug})? This cannot be undone.
              </ConfirmButton>
            )}
          </div>
        </fieldset>
      </form>
      <TemplatePreview
        preview={preview}
        pending={pending || (unchanged && served.isFetching)}
        unsaved={!unchanged}
        error={unchanged ? served.error : null}
      />
      <EditorNotice />
    </div>
  );
}

function EditorNotice() {
  useHandedNotice('email-template');
  return null;
}

/** The rendered subject, HTML (in a sandboxed frame: no script, no same origin) and text. */
function TemplatePreview({
  preview,
  pending,
  unsaved,
  error,
}: {
  preview?: Rendered;
  pending: boolean;
  unsaved: boolean;
  error: Error | null;
}) {
  return (
    <section className="preview" aria-labelledby="template-preview-title" aria-busy={pending || undefined}>
      <h2 id="template-preview-title">Preview</h2>
      <p className="hint" id="template-preview-state" role="status">
        {pending
          ? 'Updating the preview…'
          : unsaved
            ? 'Preview of your unsaved changes.'
            : 'Preview of the saved template.'}
      </p>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {preview && (
        <>
          <h3>Subject</h3>
          <p id="preview-subject" className="preview-subject">
            {preview.subject || '(no subject)'}
          </p>
          <h3>HTML</h3>
          <iframe id="preview-html" title="Preview of the HTML email" sandbox="" srcDoc={preview.html} />
          <h3>Text</h3>
          <pre id="preview-text" tabIndex={0} aria-label="Preview of the text email">
            {preview.text}
          </pre>
        </>
      )}
    </section>
  );
}

/** `/settings/email/layout`: the header and footer around every HTML email. */
export function EmailLayoutScreen({ session }: { session: Session }) {
  useDocumentTitle('Email layout');
  const layout = useQuery({
    queryKey: ['email-layout'],
    queryFn: () => unwrap(api.GET('/admin/api/email-templates/layout')),
  });
  return (
    <WithMessages>
      <p className="crumbs">
        <Link to="/settings/email/templates">Email templates</Link>
      </p>
      <Title>Email layout</Title>
      <p className="hint">
        The header and footer wrap the HTML of every email, templates and raw sends alike; their{' '}
        <code>{'{{placeholders}}'}</code> take the email’s values.
      </p>
      <Regions />
      {layout.isPending && <p className="loading">Loading…</p>}
      {layout.error && (
        <p role="alert" className="error">
          {layout.error.message}
        </p>
      )}
      {layout.data && (
        <LayoutForm initial={layout.data} readOnly={!holds(session, 'update-email-templates')} />
      )}
    </WithMessages>
  );
}

function LayoutForm({ initial, readOnly }: { initial: Layout; readOnly: boolean }) {
  const form: FormState = useForm();
  const messages = useMessages();
  const report = useSettingsReport();
  const queryClient = useQueryClient();
  return (
    <form
      className="editor"
      aria-label="Email layout"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        try {
          const r = await unwrap(
            api.PATCH('/admin/api/email-templates/layout', {
              body: { header: text(data, 'header'), footer: text(data, 'footer') },
            }),
          );
          queryClient.setQueryData(['email-layout'], r.item);
          // Every template's preview includes the layout.
          await queryClient.invalidateQueries({ queryKey: ['email-template-preview'] });
          messages.showNotice('The email layout is saved.');
        } catch (e) {
          report(e, form);
        }
      })}
    >
      <fieldset className="plain" disabled={readOnly}>
        <AreaField
          id="layout-header"
          name="header"
          label="Header (HTML)"
          className="code"
          rows={8}
          spellCheck={false}
          defaultValue={initial.header}
          form={form}
        />
        <AreaField
          id="layout-footer"
          name="footer"
          label="Footer (HTML)"
          className="code"
          rows={8}
          spellCheck={false}
          defaultValue={initial.footer}
          form={form}
        />
        <div className="actions">
          <button type="submit" className="button primary">
            Save
          </button>
        </div>
      </fieldset>
    </form>
  );
}
