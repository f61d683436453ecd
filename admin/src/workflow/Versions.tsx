import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { components } from '../../../src/client';
import { when } from '../account/shared';
import { content } from '../api';
import type { FieldDef } from '../form/fields';
import { Pager } from '../screens/Pager';
import { ConfirmButton } from '../screens/Confirm';
import { labelFor, shownValue, splitProblem } from './shared';

export type Version = components['schemas']['EntryVersion'];
type Compared = components['schemas']['EntryVersionCompared'];

const EVENT_WORDS: Record<Version['event'], string> = {
  create: 'Created',
  update: 'Updated',
  publish: 'Published',
  unpublish: 'Unpublished',
  restore: 'Restored',
};

/**
 * The versions of an entry (or single), newest first: each can be compared with the entry as
 * saved now, field by field, and restored (after a confirmation).
 */
export function Versions(props: {
  /** The entry's API path (`/collections/posts/entries/<id>` or `/singles/home`). */
  path: string;
  fields: FieldDef[];
  canRestore: boolean;
  /** Unsaved changes in the form: a restore replaces them, so the question says so. */
  dirty: boolean;
  onRestored: (version: Version) => Promise<void>;
}) {
  const { path, fields } = props;
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [compared, setCompared] = useState<Version | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['versions', path, page],
    queryFn: () =>
      content<{ items: Version[]; meta: components['schemas']['ListMeta'] }>('GET', `${path}/versions`, {
        query: { page, limit: 10 },
      }),
    placeholderData: (previous) => previous,
  });
  const restore = (v: Version) => {
    setBusy(true);
    setFailure(null);
    content('POST', `${path}/versions/${v.id}/restore`, { body: {} })
      .then(() => props.onRestored(v))
      .then(() => setCompared(null))
      .catch((e: unknown) => setFailure(splitProblem(e, []).rest))
      .finally(() => setBusy(false));
  };
  return (
    <section className="workflow-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Versions</h2>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {list.error && (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      )}
      <div className="table-wrap">
        <table aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Author</th>
              <th scope="col">Date</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((v) => (
              <tr key={v.id}>
                <td>{v.number}</td>
                <td>{EVENT_WORDS[v.event] ?? v.event}</td>
                <td>{v.status ?? '—'}</td>
                <td>{v.createdBy?.name ?? '—'}</td>
                <td>{when(v.createdAt)}</td>
                <td>
                  <div className="row-actions">
                    <button type="button" className="button" onClick={() => setCompared(v)}>
                      Compare<span className="visually-hidden"> version {v.number}</span>
                    </button>
                    {props.canRestore && (
                      <ConfirmButton
                        label={
                          <>
                            Restore<span className="visually-hidden"> version {v.number}</span>
                          </>
                        }
                        title={`Restore version ${v.number}`}
                        confirm="Restore"
                        danger={false}
                        isDisabled={busy}
                        onConfirm={() => restore(v)}
                      >
                        The entry takes the field values of version {v.number} and keeps its status; a new
                        version records the restore.
                        {props.dirty && ' Your unsaved changes in the form are replaced.'}
                      </ConfirmButton>
                    )}
                  </div>
                </td>
              </tr>
            ))}
            {list.data?.items.length === 0 && (
              <tr>
                <td colSpan={6}>No version yet: the first save keeps one.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {list.data && list.data.meta.totalPages > 1 && (
        <Pager meta={list.data.meta} one="version" many="versions" go={setPage} />
      )}
      {compared && (
        <Comparison
          key={compared.id}
          path={path}
          fields={fields}
          version={compared}
          onClose={() => setCompared(null)}
        />
      )}
    </section>
  );
}

/** One version beside the entry as saved now: the fields that differ, before and after. */
function Comparison(props: { path: string; fields: FieldDef[]; version: Version; onClose: () => void }) {
  const { path, fields, version } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const compare = useQuery({
    queryKey: ['version-compare', path, version.id],
    queryFn: () =>
      content<Compared>('GET', `${path}/versions/${version.id}`, { query: { compare: 'current' } }),
    staleTime: 0,
    gcTime: 0,
  });
  // The comparison replaces nothing on screen: the focus goes to it, so a reader hears it.
  useEffect(() => heading.current?.focus(), []);
  const n = version.number;
  const changes = compare.data?.changes ?? [];
  return (
    <section className="comparison" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        Version {n} compared with the current entry
      </h3>
      {compare.isPending && <p className="loading">Comparing…</p>}
      {compare.error && (
        <p role="alert" className="error">
          {compare.error.message}
        </p>
      )}
      {compare.data && changes.length === 0 && (
        <p>Version {n} has the same field values as the entry as saved now.</p>
      )}
      {changes.length > 0 && (
        <div className="table-wrap">
          <table aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Before (version {n})</th>
                <th scope="col">After (current)</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((c) => {
                const field = fields.find((f) => f.name === c.field);
                return (
                  <tr key={c.field}>
                    <th scope="row">{labelFor(fields, c.field)}</th>
                    <td>{shownValue(field, c.from)}</td>
                    <td>{shownValue(field, c.to)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p className="hint">
        The current entry is what is saved: changes in the form not yet saved are not compared.
      </p>
      <button type="button" className="button" onClick={props.onClose}>
        Close the comparison
      </button>
    </section>
  );
}
