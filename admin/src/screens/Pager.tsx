import type { ListMeta } from '../api';

/** "Page n of m (total things)" with the previous and next page buttons of a list. */
export function Pager(props: { meta: ListMeta; one: string; many: string; go: (page: number) => void }) {
  const { meta, go } = props;
  return (
    <nav aria-label="Pages" className="pager">
      <span>
        Page {meta.page} of {Math.max(1, meta.totalPages)} ({meta.total}{' '}
        {meta.total === 1 ? props.one : props.many})
      </span>
      <button type="button" className="button" disabled={!meta.hasPrev} onClick={() => go(meta.page - 1)}>
        Previous page
      </button>
      <button type="button" className="button" disabled={!meta.hasNext} onClick={() => go(meta.page + 1)}>
        Next page
      </button>
    </nav>
  );
}
