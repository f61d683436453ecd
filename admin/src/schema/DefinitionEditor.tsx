import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError, content, unwrap, useDefinitions, useFieldGroups } from '../api';
import { Regions, useAction, useMessages, WithMessages } from '../auth/messages';
import { Crumb, useArrivalNotice } from '../people/shared';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import { ChangesPreview, type Plan } from './ChangesPreview';
import { FieldEditor } from './FieldEditor';
import {
  createBody,
  type Draft,
  draftOf,
  emptyDraft,
  emptyField,
  type FieldDraft,
  issuesByControl,
  type Kind,
  needsPatch,
  NOUN,
  schemaBody,
  SEGMENT,
  settingChanges,
  type Stored,
  creationChanges,
} from './model';

/** `/schema/<kind>/new` and `/schema/<kind>/:slug`: one definition's builder. */
export function DefinitionEditor({ kind }: { kind: Kind }) {
  const { slug } = useParams();
  return (
    <WithMessages key={`${kind}:${slug ?? 'new'}`}>
      <Loader kind={kind} slug={slug} />
    </WithMessages>
  );
}

export const storedKey = (kind: Kind, slug: string) => ['schema', kind, slug];

/** The stored definition (fields as stored: component fields without their group's fields). */
async function load(kind: Kind, slug: string): Promise<Stored> {
  const params = { params: { path: { slug } } };
  if (kind === 'collection') {
    return (await unwrap(api.GET('/admin/api/collections/schema/{slug}', params))) as unknown as Stored;
  }
  if (kind === 'single') {
    return (await unwrap(api.GET('/admin/api/singles/{slug}/schema', params))) as unknown as Stored;
  }
  return (await unwrap(api.GET('/admin/api/field-groups/{slug}', params))) as unknown as Stored;
}

function Loader({ kind, slug }: { kind: Kind; slug?: string }) {
  const stored = useQuery({
    queryKey: storedKey(kind, slug ?? ''),
    enabled: slug !== undefined,
    queryFn: () => load(kind, slug!),
  });
  const definitions = useDefinitions();
  const groups = useFieldGroups();
  useArrivalNotice();
  if ((slug !== undefined && stored.isPending) || definitions.isPending || groups.isPending) {
    return <p className="loading">Loading…</p>;
  }
  const error = stored.error ?? definitions.error ?? groups.error;
  if (error) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <>
        <Crumb to="/schema">Content types</Crumb>
        <Title>{missing ? 'Not found' : 'Something went wrong'}</Title>
        <p role="alert">{missing ? `There is no such ${NOUN[kind]}.` : error.message}</p>
      </>
    );
  }
  const collections = (definitions.data?.collections ?? []).map((c) => ({
    slug: c.slug,
    label: c.labels.plural,
  }));
  const fieldGroups = (groups.data ?? [])
    // A group cannot hold itself.
    .filter((g) => !(kind === 'field-group' && g.slug === slug))
    .map((g) => ({ slug: g.slug, label: g.label }));
  return <Builder kind={kind} stored={stored.data} collections={collections} groups={fieldGroups} />;
}

/** Where an issue's path points in the form: `fields.2.name` is "Field 3 (title): ". */
function placeOf(path: string, draft: Draft): string {
  const [first, at] = String(path).split('.');
  if (first !== 'fields' || at === undefined || !/^\d+$/.test(at)) {
    return '';
  }
  const field = draft.fields[Number(at)];
  const name = field?.name.trim();
  return `Field ${Number(at) + 1}${name ? ` (${name})` : ''}: `;
}

function headingOf(kind: Kind, stored?: Stored): string {
  if (!stored) {
    return `New ${NOUN[kind]}`;
  }
  return kind === 'collection' ? (stored.labels?.plural ?? stored.slug) : (stored.label ?? stored.slug);
}

function Builder(props: {
  kind: Kind;
  stored?: Stored;
  collections: ReadonlyArray<{ slug: string; label: string }>;
  groups: ReadonlyArray<{ slug: string; label: string }>;
}) {
  const { kind, stored } = props;
  const isNew = stored === undefined;
  // Definitions from the configuration file (or built in) change only there.
  const locked = stored !== undefined && stored.source !== 'ui';
  const [heading, setHeading] = useState(() => headingOf(kind, stored));
  const [was, setWas] = useState<Draft>(() => (stored ? draftOf(stored) : emptyDraft()));
  const [draft, setDraft] = useState<Draft>(was);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [plan, setPlan] = useState<Plan | undefined>();
  const [focus, setFocus] = useState<string | undefined>();
  const messages = useMessages();
  const action = useAction();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const planHeading = useRef<HTMLHeadingElement>(null);
  const prefix = `schema-${kind}`;

  // Moves the focus after a change of the field list (the moved button, the new field's name).
  useEffect(() => {
    if (focus) {
      document.getElementById(focus)?.focus();
      setFocus(undefined);
    }
  }, [focus]);
  useEffect(() => {
    if (plan) {
      planHeading.current?.focus();
    }
  }, [plan]);

  /** Any edit makes the shown plan stale: it is dropped, to be previewed again. */
  const edit = (change: (d: Draft) => Draft) => {
    setDraft(change);
    setPlan(undefined);
  };
  const editField = (key: string, patch: Partial<FieldDraft>) =>
    edit((d) => ({ ...d, fields: d.fields.map((f) => (f.key === key ? { ...f, ...patch } : f)) }));
  const move = (index: number, by: -1 | 1) => {
    const fields = [...draft.fields];
    const [field] = fields.splice(index, 1);
    const to = index + by;
    fields.splice(to, 0, field);
    edit((d) => ({ ...d, fields }));
    // Field positions changed: the API's messages no longer name the right fields.
    setErrors({});
    // Keep the focus on the button pressed, unless the field reached the end it pointed to.
    const atEnd = (by === -1 && to === 0) || (by === 1 && to === fields.length - 1);
    setFocus(`${field.key}-${atEnd ? (by === -1 ? 'down' : 'up') : by === -1 ? 'up' : 'down'}`);
    messages.showNotice(`${field.label || field.name || 'The field'} moved to position ${to + 1}.`);
  };
  const removeField = (index: number) => {
    const field = draft.fields[index];
    const rest = draft.fields.filter((_, i) => i !== index);
    edit((d) => ({ ...d, fields: rest }));
    setErrors({});
    setFocus(
      rest[index]
        ? `${rest[index].key}-group`
        : rest[index - 1]
          ? `${rest[index - 1].key}-group`
          : `${prefix}-add`,
    );
    messages.showNotice(
      `${field.label || field.name || 'The field'} removed from the form.${field.id ? ' Preview and apply to delete it.' : ''}`,
    );
  };
  const add = () => {
    const field = emptyField();
    edit((d) => ({ ...d, fields: [...d.fields, field] }));
    setFocus(`${field.key}-name`);
  };

  /** Runs `request`; a refusal's issues are marked on their controls, then shown as a message. */
  const guarded = async <T,>(request: () => Promise<T>): Promise<T> => {
    setErrors({});
    try {
      return await request();
    } catch (e) {
      setErrors(issuesByControl(e));
      // The message list names the field each issue is about, as the form shows it.
      throw e instanceof ApiError
        ? new ApiError(
            e.status,
            e.code,
            e.message,
            e.issues.map((i) => ({ ...i, message: `${placeOf(i.path, draft)}${i.message}` })),
            e.data,
          )
        : e;
    }
  };

  const preview = () =>
    action.run(async () => {
      if (isNew) {
        // Nothing exists yet to compare with: creating adds every field, and the API checks all of
        // it when "Create" sends it.
        setPlan({ changes: creationChanges(draft), destructive: false, settings: [], creating: true });
        return;
      }
      const slug = stored.slug;
      const body = schemaBody(kind, draft);
      const params = { params: { path: { slug } } };
      const answer = await guarded(() =>
        kind === 'collection'
          ? unwrap(
              api.POST('/admin/api/collections/schema/{slug}/preview', { ...params, body: body as never }),
            )
          : kind === 'single'
            ? unwrap(api.POST('/admin/api/singles/schema/{slug}/preview', { ...params, body: body as never }))
            : unwrap(
                api.POST('/admin/api/field-groups/schema/{slug}/preview', {
                  ...params,
                  body: { fields: body.fields } as never,
                }),
              ),
      );
      setPlan({ ...answer, settings: settingChanges(kind, was, draft), creating: false });
    });

  const refresh = async (slug: string) => {
    await Promise.all([
      // The navigation's links and the entry screens read the definitions.
      queryClient.invalidateQueries({ queryKey: ['definitions'] }),
      queryClient.invalidateQueries({ queryKey: ['field-groups'] }),
      queryClient.invalidateQueries({ queryKey: ['schema', kind, slug] }),
      // A new collection or single brings its permissions; drafts bring publish-<slug>.
      queryClient.invalidateQueries({ queryKey: ['session'] }),
    ]);
  };

  const create = () =>
    action.run(async () => {
      const body = createBody(kind, draft);
      const send = (): Promise<{ item: { slug: string } }> =>
        kind === 'collection'
          ? unwrap(api.POST('/admin/api/collections', { body: body as never }))
          : kind === 'single'
            ? unwrap(api.POST('/admin/api/singles', { body: body as never }))
            : unwrap(api.POST('/admin/api/field-groups', { body: body as never }));
      const answer = await guarded(async () => {
        try {
          return await send();
        } catch (e) {
          // A taken slug is a conflict without per-field issues: it is the slug's all the same.
          if (e instanceof ApiError && e.status === 409 && !e.issues.length && /slug/i.test(e.message)) {
            throw new ApiError(
              e.status,
              e.code,
              e.message,
              [{ path: 'slug', code: 'taken', message: 'Choose another slug: this one is taken.' }],
              e.data,
            );
          }
          throw e;
        }
      });
      const slug = answer.item.slug;
      await refresh(slug);
      void navigate(`/schema/${SEGMENT[kind]}/${slug}`, {
        state: { notice: `The ${NOUN[kind]} ${slug} is created with ${draft.fields.length} fields.` },
      });
    });

  /** The whole definition deleted (the API refuses while something still uses it). */
  const remove = () =>
    action.run(async () => {
      const slug = stored!.slug;
      await content('DELETE', `/${SEGMENT[kind]}/${encodeURIComponent(slug)}`);
      void navigate('/schema', { state: { notice: `The ${NOUN[kind]} ${slug} is deleted.` } });
      // After leaving: this screen would otherwise load the deleted definition again.
      queryClient.removeQueries({ queryKey: storedKey(kind, slug) });
      await refresh(slug);
    });

  const apply = (confirmDestructive: boolean) =>
    action.run(async () => {
      const slug = stored!.slug;
      const body = {
        ...schemaBody(kind, draft),
        ...(confirmDestructive ? { confirmDestructive: true } : {}),
      };
      const params = { params: { path: { slug } } };
      // Labels and open access are stored by the definition's PATCH (with the fields, in one change).
      const patch = needsPatch(kind, was, draft);
      const answer = await guarded(async (): Promise<{ item: unknown }> => {
        if (kind === 'collection') {
          return patch
            ? // A collection's PATCH shares its path with the per-collection operations: sent untyped.
              content<{ item: unknown }>('PATCH', `/collections/${encodeURIComponent(slug)}`, {
                body: {
                  ...body,
                  labels: { singular: draft.singular.trim(), plural: draft.plural.trim() },
                  access: { read: draft.openRead, create: draft.openCreate },
                },
              })
            : unwrap(
                api.POST('/admin/api/collections/schema/{slug}/apply', { ...params, body: body as never }),
              );
        }
        if (kind === 'single') {
          return patch
            ? unwrap(
                api.PATCH('/admin/api/singles/{slug}/schema', {
                  ...params,
                  body: { ...body, label: draft.label.trim(), access: { read: draft.openRead } } as never,
                }),
              )
            : unwrap(api.POST('/admin/api/singles/schema/{slug}/apply', { ...params, body: body as never }));
        }
        const groupBody = {
          fields: body.fields,
          ...(confirmDestructive ? { confirmDestructive: true } : {}),
        };
        return patch
          ? unwrap(
              api.PATCH('/admin/api/field-groups/{slug}', {
                ...params,
                body: { ...groupBody, label: draft.label.trim() } as never,
              }),
            )
          : unwrap(
              api.POST('/admin/api/field-groups/schema/{slug}/apply', {
                ...params,
                body: groupBody as never,
              }),
            );
      });
      const item = answer.item as Stored;
      const count = (plan?.changes.length ?? 0) + (plan?.settings.length ?? 0);
      const next = draftOf(item);
      setWas(next);
      setDraft(next);
      setPlan(undefined);
      setHeading(headingOf(kind, item));
      await refresh(slug);
      messages.showNotice(`Applied: ${count} ${count === 1 ? 'change' : 'changes'}.`, true);
    });

  const error = (key: string) => errors[key];
  const aria = (key: string, hint = false) => ({
    'aria-describedby': [hint ? `${prefix}-${key}-hint` : '', `${prefix}-${key}-error`]
      .filter(Boolean)
      .join(' '),
    'aria-invalid': error(key) !== undefined ? true : undefined,
  });
  const slot = (key: string) => (
    <p className="field-error" id={`${prefix}-${key}-error`}>
      {error(key)}
    </p>
  );

  const input = (
    key: string,
    label: string,
    field: 'slug' | 'singular' | 'plural' | 'label' | 'versionsMax',
    opts: { hint?: string; type?: string; required?: boolean; min?: number; max?: number } = {},
  ) => (
    <div className="field">
      <label htmlFor={`${prefix}-${key}`}>{label}</label>
      <input
        id={`${prefix}-${key}`}
        type={opts.type ?? 'text'}
        value={draft[field]}
        required={opts.required}
        min={opts.min}
        max={opts.max}
        autoComplete="off"
        spellCheck={field === 'slug' ? false : undefined}
        onChange={(e) => {
          const value = e.target.value;
          edit((d) => ({ ...d, [field]: value }));
        }}
        {...aria(key, !!opts.hint)}
      />
      {opts.hint && (
        <p className="hint" id={`${prefix}-${key}-hint`}>
          {opts.hint}
        </p>
      )}
      {slot(key)}
    </div>
  );
  const checkbox = (
    key: string,
    label: string,
    field: 'drafts' | 'versions' | 'openRead' | 'openCreate',
    hint: string,
  ) => (
    <div className="field checkbox">
      <input
        id={`${prefix}-${key}`}
        type="checkbox"
        checked={draft[field]}
        onChange={(e) => {
          const value = e.target.checked;
          edit((d) => ({ ...d, [field]: value }));
        }}
        {...aria(key, true)}
      />
      <label htmlFor={`${prefix}-${key}`}>{label}</label>
      <p className="hint" id={`${prefix}-${key}-hint`}>
        {hint}
      </p>
      {slot(key)}
    </div>
  );

  const destructive = plan?.changes.filter((c) => c.destructive) ?? [];
  const nothing =
    plan !== undefined && plan.changes.length === 0 && plan.settings.length === 0 && !plan.creating;

  return (
    <>
      <Crumb to="/schema">Content types</Crumb>
      <Title>{heading}</Title>
      {stored && (
        <p className="facts">
          <span>
            {NOUN[kind][0].toUpperCase() + NOUN[kind].slice(1)} <code>{stored.slug}</code>
          </span>
          {kind === 'collection' && (
            <Link to={stored.slug === 'media' ? '/media' : `/collections/${stored.slug}`}>
              Open the entries
            </Link>
          )}
          {kind === 'single' && <Link to={`/singles/${stored.slug}`}>Open the document</Link>}
        </p>
      )}
      <Regions />
      {locked && (
        <p className="notice-static">
          This {NOUN[kind]} is defined in the service’s configuration file (or built in): it is changed there,
          not here.
        </p>
      )}
      <form
        className="editor schema-editor"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          preview();
        }}
      >
        <fieldset className="plain" disabled={locked}>
          <legend className="visually-hidden">The {NOUN[kind]}</legend>
          <section aria-labelledby={`${prefix}-settings-heading`}>
            <h2 id={`${prefix}-settings-heading`}>Settings</h2>
            {isNew &&
              input('slug', 'Slug', 'slug', {
                required: true,
                hint: 'Lower-case letters, digits and hyphens, starting with a letter. It names the API’s paths and cannot be changed later.',
              })}
            {kind === 'collection' && (
              <>
                {input('labels.singular', 'Singular label', 'singular', {
                  hint: 'One entry, as in “New Article”.',
                })}
                {input('labels.plural', 'Plural label', 'plural', {
                  hint: 'The navigation’s link, as in “Articles”.',
                })}
              </>
            )}
            {kind !== 'collection' &&
              input('label', 'Title', 'label', { hint: 'Shown in the navigation and lists.' })}
            {kind !== 'field-group' && (
              <>
                {checkbox(
                  'drafts',
                  'Drafts',
                  'drafts',
                  'Entries are saved as drafts and published when ready. Turning it off publishes every draft.',
                )}
                {checkbox(
                  'versions',
                  'Versions',
                  'versions',
                  'Keep earlier versions of each entry, to compare and restore.',
                )}
                {draft.versions &&
                  input('versions.max', 'Kept per entry', 'versionsMax', {
                    type: 'number',
                    min: 1,
                    max: 1000,
                    hint: 'How many of the newest versions are kept, from 1 to 1000.',
                  })}
                <fieldset className="plain access">
                  <legend>Open access</legend>
                  {checkbox(
                    'access.read',
                    'Anyone may read',
                    'openRead',
                    'Visitors included, published entries only. Otherwise the read permission decides.',
                  )}
                  {kind === 'collection' &&
                    checkbox(
                      'access.create',
                      'Anyone may create entries',
                      'openCreate',
                      'For a contact form or a guestbook. Otherwise the create permission decides.',
                    )}
                </fieldset>
              </>
            )}
          </section>

          <section aria-labelledby={`${prefix}-fields-heading`}>
            <h2 id={`${prefix}-fields-heading`}>Fields</h2>
            {error('fields') && (
              <p className="field-error" id={`${prefix}-fields-error`}>
                {error('fields')}
              </p>
            )}
            {draft.fields.length === 0 && <p>No fields yet.</p>}
            {draft.fields.map((f, i) => (
              <FieldEditor
                key={f.key}
                field={f}
                index={i}
                count={draft.fields.length}
                errors={errors}
                collections={props.collections}
                groups={props.groups}
                onChange={(patch) => editField(f.key, patch)}
                onMove={(by) => move(i, by)}
                onRemove={() => removeField(i)}
              />
            ))}
            <button type="button" className="button" id={`${prefix}-add`} onClick={add}>
              Add field
            </button>
          </section>
          {!locked && (
            <div className="actions">
              <button type="submit" className="button primary" disabled={action.busy}>
                Preview changes
              </button>
            </div>
          )}
        </fieldset>
      </form>

      {plan && (
        <section className="plan">
          <h2 id={`${prefix}-plan-heading`} ref={planHeading} tabIndex={-1}>
            Planned changes
          </h2>
          {nothing ? (
            <p>Nothing to change: the {NOUN[kind]} already is as the form says.</p>
          ) : (
            <ChangesPreview plan={plan} noun={NOUN[kind]} slug={isNew ? draft.slug.trim() : stored.slug} />
          )}
          {!nothing && (
            <div className="actions">
              {isNew ? (
                <button type="button" className="button primary" disabled={action.busy} onClick={create}>
                  Create
                </button>
              ) : destructive.length > 0 ? (
                <ConfirmButton
                  label="Apply"
                  title="Delete stored values?"
                  isDisabled={action.busy}
                  onConfirm={() => apply(true)}
                >
                  {`Applying deletes stored values of ${destructive.map((c) => c.field).join(', ')}. This cannot be undone.`}
                </ConfirmButton>
              ) : (
                <button
                  type="button"
                  className="button primary"
                  disabled={action.busy}
                  onClick={() => apply(false)}
                >
                  Apply
                </button>
              )}
            </div>
          )}
        </section>
      )}

      {stored && !locked && (
        <section className="danger-zone">
          <h2>Delete</h2>
          <p>
            {kind === 'field-group'
              ? 'A field group still used by a component field cannot be deleted.'
              : `Deleting the ${NOUN[kind]} deletes its table, every entry in it and its permissions.`}
          </p>
          <ConfirmButton
            label={`Delete ${NOUN[kind]}`}
            title={`Delete the ${NOUN[kind]} ${stored.slug}?`}
            isDisabled={action.busy}
            onConfirm={remove}
          >
            {`The ${NOUN[kind]} ${stored.slug} and everything stored in it are deleted. This cannot be undone.`}
          </ConfirmButton>
        </section>
      )}
    </>
  );
}
