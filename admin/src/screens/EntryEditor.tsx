import { Title } from './Title';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { Link, useBlocker, useNavigate, useOutletContext, useParams } from 'react-router';
import { ApiError, content, type Entry, may, type Session, useDefinitions, useFieldGroups } from '../api';
import { emptyItem, itemsOf, moved, textOf } from '../form/component';
import {
  controlOf,
  type FieldDef,
  fieldOfIssue,
  type FormValue,
  type FormValues,
  labelOf,
  optionsOf,
  toBody,
  toForm,
} from '../form/fields';
import { Conflict } from '../workflow/Conflict';
import { Preview } from '../workflow/Preview';
import { type Schedule, Schedules } from '../workflow/Schedule';
import { entryPath, type Loaded, loadEntry, tagged } from '../workflow/shared';
import { type Version, Versions } from '../workflow/Versions';
import { ConfirmButton } from './Confirm';
import { type MediaItem, send, thumbnailOf } from './MediaLibrary';

// Lexical and its plugins: a chunk of their own, loaded with the first rich-text field.
const RichText = lazy(() => import('../form/RichText'));

/** The editor of one entry (or of a new one), generated from its collection's fields. */
export default function EntryEditor() {
  const { slug = '', id } = useParams();
  const session = useOutletContext<Session>();
  const definitions = useDefinitions();
  const def = definitions.data?.collections.find((c) => c.slug === slug);
  const entry = useQuery({
    queryKey: ['entry', slug, id],
    enabled: id !== undefined && def !== undefined,
    queryFn: () => loadEntry(entryPath('collection', slug, id), def?.drafts ?? false),
    ...AS_LOADED,
  });
  if (definitions.isPending || (id !== undefined && entry.isPending)) {
    return <p className="loading">Loading…</p>;
  }
  if (!def || entry.error) {
    return (
      <>
        <Title>Not found</Title>
        <p role="alert">{entry.error?.message ?? `There is no collection “${slug}”.`}</p>
      </>
    );
  }
  const media = slug === 'media';
  const target: FormTarget = {
    kind: 'collection',
    slug,
    singular: def.labels.singular,
    plural: def.labels.plural,
    // A media entry's file and its facts are the upload's; only its texts are edited here.
    fields: (def.fields as FieldDef[]).filter((f) => !media || MEDIA_EDITABLE.includes(f.name)),
    drafts: def.drafts,
    versions: def.versions !== false,
    access: def.access,
  };
  return <EntryForm key={`${slug}/${id ?? 'new'}`} target={target} loaded={entry.data} session={session} />;
}

const MEDIA_EDITABLE = ['alt', 'caption'];

/**
 * The form keeps the state it was loaded from (its tag goes with the save), so the cache must not
 * refresh it underneath: never stale while shown, not refetched on focus, and dropped once the
 * editor closes, so the next opening reads the entry afresh.
 */
const AS_LOADED = { staleTime: Infinity, gcTime: 0, refetchOnWindowFocus: false } as const;

/** The editor of a single's content: the same form, saved in place. */
export function SingleEditor() {
  const { slug = '' } = useParams();
  const session = useOutletContext<Session>();
  const definitions = useDefinitions();
  const def = definitions.data?.singles.find((c) => c.slug === slug);
  const current = useQuery({
    queryKey: ['single', slug],
    enabled: def !== undefined,
    queryFn: () => loadEntry(entryPath('single', slug), def?.drafts ?? false),
    ...AS_LOADED,
  });
  if (definitions.isPending || (def && current.isPending)) {
    return <p className="loading">Loading…</p>;
  }
  if (!def || current.error) {
    return (
      <>
        <Title>Not found</Title>
        <p role="alert">{current.error?.message ?? `There is no single “${slug}”.`}</p>
      </>
    );
  }
  const target: FormTarget = {
    kind: 'single',
    slug,
    singular: def.label,
    plural: def.label,
    fields: def.fields as FieldDef[],
    drafts: def.drafts,
    versions: def.versions !== false,
    access: def.access,
  };
  return <EntryForm key={slug} target={target} loaded={current.data} session={session} />;
}

/** What the form edits: a collection's entry, or a single's content. */
interface FormTarget {
  kind: 'collection' | 'single';
  slug: string;
  singular: string;
  plural: string;
  fields: FieldDef[];
  drafts: boolean;
  versions: boolean;
  access: { create?: boolean | 'function'; update: boolean | 'function'; delete?: boolean | 'function' };
}

/** Where a save stands when the service refused it for a change made since the form was loaded. */
interface Conflicting {
  server: Loaded;
  status?: 'draft' | 'published';
}

function EntryForm({ target, loaded, session }: { target: FormTarget; loaded?: Loaded; session: Session }) {
  const def = target;
  const fields = target.fields;
  const slug = target.slug;
  const single = target.kind === 'single';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // What the form was loaded from (or last saved as): its values are compared on a conflict and
  // its tag is sent with the next save.
  const [base, setBase] = useState<Loaded | undefined>(loaded);
  const entry = base?.item;
  const path = single
    ? entryPath('single', slug)
    : entry
      ? entryPath('collection', slug, entry.id)
      : undefined;
  const formOf = (item?: Entry) =>
    Object.fromEntries(fields.map((f) => [f.name, toForm(f, item?.[f.name])])) as FormValues;
  const [values, setValues] = useState<FormValues>(() => formOf(entry));
  // Bumped when the form takes new values from the service: the controls (rich text, components)
  // keep their own state and start again from the new values.
  const [generation, setGeneration] = useState(0);
  const [conflict, setConflict] = useState<Conflicting | null>(null);
  const [dirty, setDirtyState] = useState(false);
  // The blocker reads the ref: a save followed at once by a navigation must not be held up by a
  // render that has not happened yet.
  const dirtyRef = useRef(false);
  const setDirty = (value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  };
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const blocker = useBlocker(() => dirtyRef.current);
  useEffect(() => {
    if (!dirty) {
      return;
    }
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  /** Keeps `next` as the saved state, in the form and in the cache. */
  const remember = (next: Loaded) => {
    setBase(next);
    queryClient.setQueryData(single ? ['single', slug] : ['entry', slug, next.item.id], next);
    if (path) {
      void queryClient.invalidateQueries({ queryKey: ['versions', path] });
    }
  };
  /** The form shows `next` (a reload, a restore, a scheduled change): its edits are dropped. */
  const adopt = (next: Loaded) => {
    remember(next);
    setValues(formOf(next.item));
    setGeneration((g) => g + 1);
    setIssues({});
    setFailure(null);
    setConflict(null);
    setDirty(false);
  };

  const save = useMutation({
    mutationFn: async ({
      status,
      over,
    }: {
      status?: 'draft' | 'published';
      over?: Loaded;
    }): Promise<Loaded> => {
      const { body, issues: local } = toBody(fields, values);
      if (local.length) {
        throw new ApiError(
          400,
          'VALIDATION_ERROR',
          'Some fields need another value',
          local.map((i) => ({ ...i, code: 'form' })),
        );
      }
      if (status) {
        body.status = status;
      }
      // The save names the state it was made over (or, to overwrite, the newer one): a save made
      // since by someone else is refused with 412 instead of being lost.
      const answer = path
        ? await tagged<{ item: Entry }>('PATCH', path, { body, ifMatch: (over ?? base)?.etag })
        : await tagged<{ item: Entry }>('POST', `/collections/${slug}/entries`, { body });
      const item = answer.data.item;
      return answer.etag
        ? { item, etag: answer.etag }
        : loadEntry(path ?? entryPath('collection', slug, item.id), def.drafts);
    },
    onSuccess: async (next, { status }) => {
      setIssues({});
      setFailure(null);
      setConflict(null);
      setDirty(false);
      setNotice(status === 'published' ? 'Published' : entry ? 'Saved' : 'Created');
      remember(next);
      if (single) {
        return;
      }
      const item = next.item;
      await queryClient.invalidateQueries({ queryKey: ['entries', slug] });
      if (!entry) {
        // The new entry's own URL.
        void navigate(`/collections/${slug}/${item.id}`, { replace: true });
      }
    },
    onError: (e, { status }) => {
      setNotice(null);
      if (e instanceof ApiError && e.status === 412 && path) {
        // Someone saved since: show what they changed, and let the editor choose.
        setFailure(null);
        loadEntry(path, def.drafts)
          .then((server) => setConflict({ server, status }))
          .catch((err: Error) => setFailure(err.message));
        return;
      }
      const err = e instanceof ApiError ? e : new ApiError(0, 'UNKNOWN', e.message);
      const byField: Record<string, string> = {};
      const other: string[] = [];
      for (const issue of err.issues) {
        const name = fieldOfIssue(issue.path);
        if (fields.some((f) => f.name === name)) {
          byField[name] = byField[name] ? `${byField[name]}; ${issue.message}` : issue.message;
        } else {
          other.push(issue.message);
        }
      }
      setIssues(byField);
      setFailure([err.message, ...other].join(' '));
    },
  });
  const remove = useMutation({
    mutationFn: () => tagged('DELETE', `/collections/${slug}/entries/${entry!.id}`, { ifMatch: base?.etag }),
    onSuccess: async () => {
      setDirty(false);
      queryClient.removeQueries({ queryKey: ['entry', slug, entry!.id] });
      await queryClient.invalidateQueries({ queryKey: ['entries', slug] });
      void navigate(slug === 'media' ? '/media' : `/collections/${slug}`);
    },
    onError: (e) =>
      setFailure(
        e instanceof ApiError && e.status === 412
          ? `Someone saved this ${def.singular.toLowerCase()} after you opened it, so it was not deleted. Reload the page to see their changes first.`
          : e.message,
      ),
  });

  const change = (name: string, value: FormValue) => {
    setValues((v) => ({ ...v, [name]: value }));
    setDirty(true);
    setNotice(null);
  };
  const updating = single || entry !== undefined;
  const canWrite = may(
    session,
    updating ? 'update' : 'create',
    slug,
    updating ? def.access.update : (def.access.create ?? false),
  );
  const canPublish = session.isSuperAdmin || session.permissions.includes(`publish-${slug}`);
  const published = entry?.status === 'published';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ status: def.drafts ? 'draft' : undefined });
  };
  const restored = async (v: Version) => {
    adopt(await loadEntry(path!, def.drafts));
    setNotice(`Version ${v.number} restored`);
  };
  // Stable for the schedule list's effect; reads the newest state through refs.
  const adoptRef = useRef(adopt);
  adoptRef.current = adopt;
  const onRan = useCallback(
    (s: Schedule) => {
      if (s.status === 'failed') {
        setFailure(`The scheduled ${s.action} failed: ${s.error ?? 'no reason given'}.`);
        return;
      }
      const done = `The scheduled ${s.action} ran: this ${single ? 'content' : 'entry'} is now ${
        s.action === 'publish' ? 'published' : 'a draft'
      }.`;
      if (dirtyRef.current) {
        // The form keeps the editor's changes; their save will show what changed since.
        setNotice(`${done} Your changes are not saved yet.`);
        return;
      }
      loadEntry(path!, def.drafts)
        .then((next) => {
          adoptRef.current(next);
          setNotice(done);
        })
        .catch((err: Error) => setFailure(err.message));
    },
    [path, def.drafts, single],
  );
  const title = single
    ? def.singular
    : entry
      ? String(entry[slug === 'media' ? 'filename' : fields[0]?.name] ?? '') || def.singular
      : `New ${def.singular}`;
  return (
    <>
      {!single && (
        <p className="crumbs">
          <Link to={slug === 'media' ? '/media' : `/collections/${slug}`}>{def.plural}</Link>
        </p>
      )}
      <Title>{title}</Title>
      {entry?.status && def.drafts && (
        <p>
          Status: <span className={`badge ${entry.status}`}>{entry.status}</span>
        </p>
      )}
      {slug === 'media' && entry && <MediaFacts item={entry as MediaItem} />}
      {!canWrite && <p>You may read this {single ? 'content' : 'entry'} but not change it.</p>}
      <form onSubmit={submit} noValidate className="editor">
        {/* Without the right to save, the controls show the values and take no input. */}
        <fieldset key={generation} className="plain" disabled={!canWrite}>
          {fields.map((field) => (
            <FieldControl
              key={field.name}
              field={field}
              value={values[field.name]}
              error={issues[field.name]}
              onChange={(v) => change(field.name, v)}
            />
          ))}
        </fieldset>
        <div role="status" className="notice">
          {notice}
        </div>
        {failure && (
          <p role="alert" className="error">
            {failure}
          </p>
        )}
        {conflict && (
          <Conflict
            fields={fields}
            loadedWith={base}
            server={conflict.server}
            mine={values}
            busy={save.isPending}
            onReload={() => {
              adopt(conflict.server);
              setNotice('Reloaded: the form shows the saved values');
            }}
            onOverwrite={() => save.mutate({ status: conflict.status, over: conflict.server })}
          />
        )}
        <div className="actions">
          <Button type="submit" className="button primary" isDisabled={!canWrite || save.isPending}>
            {def.drafts ? 'Save draft' : 'Save'}
          </Button>
          {def.drafts && canPublish && (
            <Button
              className="button"
              isDisabled={save.isPending}
              onPress={() => save.mutate({ status: 'published' })}
            >
              Publish
            </Button>
          )}
          {def.drafts && canPublish && published && (
            <Button
              className="button"
              isDisabled={save.isPending}
              onPress={() => save.mutate({ status: 'draft' })}
            >
              Unpublish
            </Button>
          )}
          {entry && !single && may(session, 'delete', slug, def.access.delete ?? false) && (
            <ConfirmButton
              label="Delete"
              title={`Delete this ${def.singular.toLowerCase()}`}
              onConfirm={() => remove.mutate()}
            >
              Delete “{title}”? This cannot be undone.
            </ConfirmButton>
          )}
        </div>
      </form>
      {/* A media entry is a file: it has no page to preview and no publishing. */}
      {path && entry && slug !== 'media' && (
        <div className="workflow">
          <div className="workflow-tools">
            <Preview path={path} what={def.plural} dirty={dirty} />
          </div>
          {def.drafts && <Schedules path={path} canSchedule={canPublish && canWrite} onRan={onRan} />}
          {def.versions && (
            <Versions path={path} fields={fields} canRestore={canWrite} dirty={dirty} onRestored={restored} />
          )}
        </div>
      )}
      {blocker.state === 'blocked' && (
        <div role="alertdialog" aria-modal="true" aria-labelledby="leave-title" className="modal">
          <div className="dialog">
            <h2 id="leave-title">Leave without saving?</h2>
            <p>Your changes to this entry are not saved.</p>
            <div className="actions">
              <button type="button" className="button" autoFocus onClick={() => blocker.reset()}>
                Stay
              </button>
              <button type="button" className="button danger" onClick={() => blocker.proceed()}>
                Leave
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}

/** One field's control, labelled by the field's label, its API error tied to it. */
function FieldControl(props: {
  field: FieldDef;
  value: FormValue;
  error?: string;
  onChange: (v: FormValue) => void;
}) {
  const { field, value, error, onChange } = props;
  const id = useId();
  const errorId = `${id}-error`;
  const control = controlOf(field);
  const label = `${labelOf(field)}${field.required ? ' *' : ''}`;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined };
  const text = typeof value === 'string' ? value : '';
  let input;
  switch (control) {
    case 'checkbox':
      return (
        <div className="field checkbox">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
            {...aria}
          />
          <label htmlFor={id}>{label}</label>
          {error && (
            <p id={errorId} className="field-error">
              {error}
            </p>
          )}
        </div>
      );
    case 'textarea':
    case 'json':
      input = (
        <textarea
          id={id}
          value={text}
          rows={control === 'json' ? 8 : 4}
          className={control === 'json' ? 'code' : undefined}
          spellCheck={control !== 'json'}
          onChange={(e) => onChange(e.target.value)}
          {...aria}
        />
      );
      break;
    case 'select':
      input = (
        <select id={id} value={text} onChange={(e) => onChange(e.target.value)} {...aria}>
          <option value="">(none)</option>
          {optionsOf(field).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'multiselect':
      input = (
        <select
          id={id}
          multiple
          value={Array.isArray(value) ? value : []}
          onChange={(e) => onChange([...e.target.selectedOptions].map((o) => o.value))}
          {...aria}
        >
          {optionsOf(field).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'richtext':
      return (
        <div className="field">
          <span id={`${id}-label`} className="label">
            {label}
          </span>
          <Suspense fallback={<p className="loading">Loading the editor…</p>}>
            <RichText
              labelId={`${id}-label`}
              value={text}
              onChange={onChange}
              invalid={Boolean(error)}
              describedBy={error ? errorId : undefined}
            />
          </Suspense>
          {error && (
            <p id={errorId} className="field-error">
              {error}
            </p>
          )}
        </div>
      );
    case 'component':
      return (
        <ComponentControl
          id={id}
          label={label}
          field={field}
          value={text}
          onChange={onChange}
          error={error}
        />
      );
    case 'relationship':
    case 'relationships':
    case 'upload':
      input = (
        <RelationPicker id={id} label={label} field={field} value={value} onChange={onChange} aria={aria} />
      );
      break;
    default:
      input = (
        <input
          id={id}
          type={
            control === 'datetime'
              ? 'datetime-local'
              : control === 'number'
                ? 'number'
                : control === 'email'
                  ? 'email'
                  : 'text'
          }
          step={control === 'datetime' ? 1 : control === 'number' ? 'any' : undefined}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          {...aria}
        />
      );
  }
  return (
    <div className="field">
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {input}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Related entries (or media, for an upload field) to pick from: the first 100, newest first. */
function RelationPicker(props: {
  id: string;
  label: string;
  field: FieldDef;
  value: FormValue;
  onChange: (v: FormValue) => void;
  aria: Record<string, unknown>;
}) {
  const { id, label, field, value, onChange, aria } = props;
  const upload = field.type === 'upload';
  const target = upload ? 'media' : (field.relationTo ?? '');
  const definitions = useDefinitions();
  const related = definitions.data?.collections.find((c) => c.slug === target);
  const titleField = upload
    ? 'filename'
    : (related?.fields as FieldDef[] | undefined)?.find((f) => controlOf(f) === 'text')?.name;
  const many = Array.isArray(value);
  const chosen = many ? value : typeof value === 'string' && value ? [value] : [];
  const [search, setSearch] = useState('');
  const [sending, setSending] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const found = useQuery({
    queryKey: ['entries', target, 'picker', search],
    enabled: target !== '',
    queryFn: () =>
      content<{ items: Entry[] }>('GET', `/collections/${target}/entries`, {
        query: {
          limit: 50,
          sort: '-updatedAt',
          where: search && titleField ? { [titleField]: { contains: search } } : undefined,
        },
      }),
    placeholderData: (previous) => previous,
  });
  // The chosen entries stay among the options whatever the search shows.
  const current = useQuery({
    queryKey: ['entries', target, 'chosen', chosen],
    enabled: target !== '' && chosen.length > 0,
    queryFn: () =>
      content<{ items: Entry[] }>('GET', `/collections/${target}/entries`, {
        query: { limit: chosen.length, where: { id: { in: chosen } } },
      }),
  });
  const options = [...(current.data?.items ?? [])];
  for (const e of found.data?.items ?? []) {
    if (!options.some((o) => o.id === e.id)) {
      options.push(e);
    }
  }
  const labelOfEntry = (e: Entry) => String((titleField && e[titleField]) || e.alt || e.id);
  return (
    // An upload field is a group named by its label (the search, the list and the upload in it).
    <div
      className="picker"
      role={upload ? 'group' : undefined}
      aria-labelledby={upload ? `${id}-label` : undefined}
    >
      <input
        type="search"
        aria-label={`Search ${label.replace(/ \*$/, '')}`}
        placeholder="Search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <select
        id={id}
        multiple={many}
        value={many ? value : typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(many ? [...e.target.selectedOptions].map((o) => o.value) : e.target.value)}
        {...aria}
      >
        {!many && <option value="">(none)</option>}
        {options.map((e) => (
          <option key={e.id} value={e.id}>
            {labelOfEntry(e)}
          </option>
        ))}
      </select>
      {upload && (
        <label className="button">
          {sending ? `Uploading ${sending}…` : 'Upload a new file'}
          <input
            type="file"
            className="visually-hidden"
            disabled={sending !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) {
                return;
              }
              setSending(file.name);
              setRefused(null);
              send(file, () => undefined)
                .then((item) => {
                  onChange(many ? [...chosen, item.id] : item.id);
                  void queryClient.invalidateQueries({ queryKey: ['entries', 'media'] });
                })
                .catch((err: Error) => setRefused(`${file.name}: ${err.message}`))
                .finally(() => setSending(null));
            }}
          />
        </label>
      )}
      {refused && (
        <p role="alert" className="field-error">
          {refused}
        </p>
      )}
    </div>
  );
}

/**
 * A component field: its group's fields, once or as a list (repeatable: add, remove, move up and
 * down). It keeps each item's form values and writes the field's JSON text on every change.
 */
function ComponentControl(props: {
  id: string;
  label: string;
  field: FieldDef;
  value: string;
  onChange: (v: FormValue) => void;
  error?: string;
}) {
  const { id, label, field, onChange, error } = props;
  const groups = useFieldGroups();
  const group = groups.data?.find((g) => g.slug === field.fieldGroup);
  if (groups.isPending) {
    return <p className="loading">Loading {label}…</p>;
  }
  if (!group) {
    return (
      <p role="alert" className="field-error">
        {label}: the field group “{field.fieldGroup}” is not available.
      </p>
    );
  }
  return (
    <ComponentItems
      id={id}
      label={label}
      fields={group.fields as FieldDef[]}
      repeatable={field.repeatable === true}
      initial={props.value}
      onChange={onChange}
      error={error}
    />
  );
}

function ComponentItems(props: {
  id: string;
  label: string;
  fields: FieldDef[];
  repeatable: boolean;
  initial: string;
  onChange: (v: FormValue) => void;
  error?: string;
}) {
  const { id, label, fields, repeatable, onChange, error } = props;
  const [items, setItems] = useState(() => itemsOf(fields, props.initial, repeatable));
  const errorId = `${id}-error`;
  const update = (next: typeof items) => {
    setItems(next);
    onChange(textOf(fields, next, repeatable));
  };
  const shown = repeatable ? items : items.length ? items : [emptyItem(fields)];
  return (
    <fieldset className="component" aria-describedby={error ? errorId : undefined}>
      <legend>{label}</legend>
      {shown.map((item, i) => {
        const n = i + 1;
        const body = fields.map((sub) => (
          <FieldControl
            key={sub.name}
            field={sub}
            value={item[sub.name]}
            onChange={(v) => {
              const next = shown.map((x, j) => (j === i ? { ...x, [sub.name]: v } : x));
              update(next);
            }}
          />
        ));
        return repeatable ? (
          <fieldset key={i} className="component-item">
            <legend>
              {label} {n}
            </legend>
            {body}
            <div className="actions">
              <button
                type="button"
                className="button"
                disabled={i === 0}
                onClick={() => update(moved(items, i, -1))}
              >
                Move {label} {n} up
              </button>
              <button
                type="button"
                className="button"
                disabled={i === items.length - 1}
                onClick={() => update(moved(items, i, 1))}
              >
                Move {label} {n} down
              </button>
              <button
                type="button"
                className="button danger"
                onClick={() => update(items.filter((_, j) => j !== i))}
              >
                Remove {label} {n}
              </button>
            </div>
          </fieldset>
        ) : (
          <div key={i}>{body}</div>
        );
      })}
      {repeatable && (
        <button type="button" className="button" onClick={() => update([...items, emptyItem(fields)])}>
          Add {label}
        </button>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A media file's preview and facts: its type, size, dimensions and image sizes. */
function MediaFacts({ item }: { item: MediaItem }) {
  const thumb = thumbnailOf(item);
  return (
    <section aria-label="File" className="media-facts">
      {thumb && <img src={thumb} alt={item.alt ?? ''} width={320} height={240} />}
      <dl>
        <dt>Type</dt>
        <dd>{item.mimeType}</dd>
        <dt>Size</dt>
        <dd>{((item.filesize ?? 0) / 1024).toFixed(1)} KB</dd>
        {item.width && item.height ? (
          <>
            <dt>Dimensions</dt>
            <dd>
              {item.width} × {item.height}
            </dd>
          </>
        ) : null}
        {item.url && (
          <>
            <dt>File</dt>
            <dd>
              <a href={item.url}>{item.filename}</a>
            </dd>
          </>
        )}
        {Object.entries(item.sizes ?? {}).map(([name, size]) => (
          <div key={name}>
            <dt>Size “{name}”</dt>
            <dd>
              <a href={size.url}>
                {size.width} × {size.height}
              </a>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
