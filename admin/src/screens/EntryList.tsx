import { Title } from './Title';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useOutletContext, useParams, useSearchParams } from 'react-router';
import { Button } from 'react-aria-components';
import { content, type Entry, type ListMeta, may, type Session, useDefinitions } from '../api';
import { controlOf, type FieldDef, labelOf } from '../form/fields';
import { ConfirmButton } from './Confirm';
import { FilterBuilder } from './FilterBuilder';
import { Pager } from './Pager';
import { type Condition, filterFields, toWhere } from '../form/filters';

const LISTABLE = new Set(['text', 'textarea', 'email', 'number', 'checkbox', 'datetime', 'select']);
const SEARCHABLE = new Set(['text', 'textarea', 'email']);

/** The columns the user picked for a collection (kept in this browser), else its first three fields. */
function useColumns(slug: string, fields: FieldDef[]): [string[], (names: string[]) => void] {
  const key = `svc.columns.${slug}`;
  const stored = (() => {
    try {
      return JSON.parse(localStorage.getItem(key) ?? 'null') as string[] | null;
    } catch {
      return null;
    }
  })();
  const listable = fields.filter((f) => LISTABLE.has(controlOf(f))).map((f) => f.name);
  const [columns, setColumns] = useState<string[]>(
    stored?.filter((n) => listable.includes(n)) ?? listable.slice(0, 3),
  );
  return [
    columns,
    (names) => {
      localStorage.setItem(key, JSON.stringify(names));
      setColumns(names);
    },
  ];
}

function cell(field: FieldDef, value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (controlOf(field) === 'datetime') {
    return new Date(String(value)).toLocaleString();
  }
  if (typeof value === 'boolean') {
    return value ? 'Yes' : 'No';
  }
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** A collection's entries: a table with the picked columns, search, sort, paging and bulk actions. */
export function EntryList() {
  const { slug = '' } = useParams();
  const session = useOutletContext<Session>();
  const definitions = useDefinitions();
  const def = definitions.data?.collections.find((c) => c.slug === slug);
  if (definitions.isPending) {
    return <p className="loading">Loading…</p>;
  }
  if (!def) {
    return (
      <>
        <Title>Not found</Title>
        <p>There is no collection “{slug}”.</p>
      </>
    );
  }
  return <EntryTable key={slug} slug={slug} def={def} session={session} />;
}

function EntryTable({
  slug,
  def,
  session,
}: {
  slug: string;
  def: NonNullable<ReturnType<typeof useDefinitions>['data']>['collections'][number];
  session: Session;
}) {
  const fields = def.fields as FieldDef[];
  const [params, setParams] = useSearchParams();
  const [columns, setColumns] = useColumns(slug, fields);
  const [selected, setSelected] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<{ message: string; errors: string[] } | null>(null);
  const queryClient = useQueryClient();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sort = params.get('sort') || '-updatedAt';
  const search = params.get('q') ?? '';
  const drafts = def.drafts && may(session, 'update', slug, def.access.update);
  const searchable = fields.filter((f) => SEARCHABLE.has(controlOf(f)));
  const searchWhere =
    search && searchable.length
      ? { or: searchable.map((f) => ({ [f.name]: { contains: search } })) }
      : undefined;
  const filterable = filterFields(fields, def.drafts);
  const filter = readFilter(params.get('filter'));
  const filterWhere = toWhere(filterable, filter.conditions, filter.mode);
  const where =
    searchWhere && filterWhere ? { and: [searchWhere, filterWhere] } : (searchWhere ?? filterWhere);
  const list = useQuery({
    queryKey: ['entries', slug, { page, sort, where, drafts }],
    queryFn: () =>
      content<{ items: Entry[]; meta: ListMeta }>('GET', `/collections/${slug}/entries`, {
        query: { page, limit: 20, sort, where, ...(drafts ? { status: 'all' } : {}) },
      }),
    placeholderData: (previous) => previous,
  });
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') {
        next.delete(k);
      } else {
        next.set(k, v);
      }
    }
    setParams(next);
  };
  const bulk = useMutation({
    mutationFn: (action: 'delete' | 'publish') =>
      content<{ message: string; errors: Array<{ id: string; message: string }> }>(
        'POST',
        `/collections/${slug}/entries/${action === 'delete' ? 'bulk-delete' : 'bulk-update'}`,
        { body: action === 'delete' ? { ids: selected } : { ids: selected, data: { status: 'published' } } },
      ),
    onSuccess: (result) => {
      setOutcome({ message: result.message, errors: result.errors.map((e) => `${e.id}: ${e.message}`) });
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: ['entries', slug] });
    },
    onError: (e) => setOutcome({ message: e.message, errors: [] }),
  });
  const shown = fields.filter((f) => columns.includes(f.name));
  const items = list.data?.items ?? [];
  const meta = list.data?.meta;
  const sortButton = (name: string, label: string) => {
    const state = sort === name ? 'ascending' : sort === `-${name}` ? 'descending' : 'none';
    return (
      <th scope="col" aria-sort={state}>
        <button
          type="button"
          className="sort"
          onClick={() => set({ sort: state === 'ascending' ? `-${name}` : name, page: null })}
        >
          {label}
          <span aria-hidden="true">{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}</span>
        </button>
      </th>
    );
  };
  return (
    <>
      <div className="title-row">
        <Title>{def.labels.plural}</Title>
        {slug !== 'media' && may(session, 'create', slug, def.access.create) && (
          <Link className="button primary" to={`/collections/${slug}/new`}>
            Create new
          </Link>
        )}
      </div>
      <form
        role="search"
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          set({ q: String(new FormData(e.currentTarget).get('q') ?? ''), page: null });
        }}
      >
        <label htmlFor="entry-search">Search</label>
        <input id="entry-search" name="q" type="search" defaultValue={search} />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <details className="columns" open={filter.conditions.length > 0}>
        <summary>Filter the list{filter.conditions.length ? ` (${filter.conditions.length})` : ''}</summary>
        <FilterBuilder
          key={params.get('filter') ?? ''}
          fields={filterable}
          initial={filter}
          onApply={(mode, conditions) =>
            set({ filter: conditions.length ? JSON.stringify({ mode, conditions }) : null, page: null })
          }
        />
      </details>
      <details className="columns">
        <summary>Columns</summary>
        <fieldset>
          <legend>Columns shown</legend>
          {fields
            .filter((f) => LISTABLE.has(controlOf(f)))
            .map((f) => (
              <label key={f.name}>
                <input
                  type="checkbox"
                  checked={columns.includes(f.name)}
                  onChange={(e) =>
                    setColumns(e.target.checked ? [...columns, f.name] : columns.filter((n) => n !== f.name))
                  }
                />{' '}
                {labelOf(f)}
              </label>
            ))}
        </fieldset>
      </details>
      {list.error && <p role="alert">{list.error.message}</p>}
      {outcome && (
        <div role="status" className="outcome">
          <p>{outcome.message}</p>
          {outcome.errors.length > 0 && (
            <ul>
              {outcome.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="bulk">
        <span>{selected.length} selected</span>
        {def.drafts && (
          <Button className="button" isDisabled={!selected.length} onPress={() => bulk.mutate('publish')}>
            Publish selected
          </Button>
        )}
        <ConfirmButton
          label="Delete selected"
          title="Delete entries"
          isDisabled={!selected.length}
          onConfirm={() => bulk.mutate('delete')}
        >
          Delete {selected.length} {selected.length === 1 ? 'entry' : 'entries'}? This cannot be undone.
        </ConfirmButton>
      </div>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{def.labels.plural}</caption>
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all"
                  checked={items.length > 0 && selected.length === items.length}
                  onChange={(e) => setSelected(e.target.checked ? items.map((i) => i.id) : [])}
                />
              </th>
              {shown.map((f) => sortButton(f.name, labelOf(f)))}
              {def.drafts && <th scope="col">Status</th>}
              {sortButton('updatedAt', 'Updated')}
            </tr>
          </thead>
          <tbody>
            {items.map((entry, i) => (
              <tr key={entry.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select entry ${i + 1}`}
                    checked={selected.includes(entry.id)}
                    onChange={(e) =>
                      setSelected(
                        e.target.checked ? [...selected, entry.id] : selected.filter((id) => id !== entry.id),
                      )
                    }
                  />
                </td>
                {shown.map((f, j) => (
                  <td key={f.name}>
                    {j === 0 ? (
                      <Link to={`/collections/${slug}/${entry.id}`}>
                        {cell(f, entry[f.name]) || '(untitled)'}
                      </Link>
                    ) : (
                      cell(f, entry[f.name])
                    )}
                  </td>
                ))}
                {def.drafts && (
                  <td>
                    <span className={`badge ${entry.status}`}>{entry.status}</span>
                  </td>
                )}
                <td>
                  {shown.length === 0 ? (
                    <Link to={`/collections/${slug}/${entry.id}`}>
                      {new Date(entry.updatedAt).toLocaleString()}
                    </Link>
                  ) : (
                    new Date(entry.updatedAt).toLocaleString()
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {meta && <Pager meta={meta} one="entry" many="entries" go={(n) => set({ page: String(n) })} />}
    </>
  );
}

/** The applied filter from the URL (`filter`: `{ mode, conditions }` as JSON); none when unreadable. */
function readFilter(text: string | null): { mode: 'and' | 'or'; conditions: Condition[] } {
  try {
    const parsed = JSON.parse(text ?? '') as { mode?: unknown; conditions?: unknown };
    const conditions = Array.isArray(parsed.conditions)
      ? parsed.conditions.filter(
          (c): c is Condition =>
            typeof c === 'object' &&
            c !== null &&
            typeof (c as Condition).field === 'string' &&
            typeof (c as Condition).op === 'string' &&
            typeof (c as Condition).value === 'string',
        )
      : [];
    return { mode: parsed.mode === 'or' ? 'or' : 'and', conditions };
  } catch {
    return { mode: 'and', conditions: [] };
  }
}
