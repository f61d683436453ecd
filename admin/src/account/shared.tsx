import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect } from 'react';
import { ApiError } from '../api';
import { type FormState, useMessages } from '../auth/messages';
import { isCancelledReauth } from './password';

/** A date as the browser writes it, or a dash. */
export function day(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString() : '—';
}

/** A moment (date and time) as the browser writes it, or a dash. */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** The session is over (its next request was refused): the layout sends the browser to sign in. */
function useSignedOut(): (error: unknown) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401 && error.code === 'AUTH_REQUIRED') {
        void queryClient.invalidateQueries({ queryKey: ['session'] });
      }
    },
    [queryClient],
  );
}

/**
 * Announces a refusal (`showProblem`: fields of `form` marked, `special` words for some codes),
 * except a change whose password prompt was cancelled, which went nowhere.
 */
export function useReport(): (error: unknown, form?: FormState, special?: Record<string, string>) => void {
  const messages = useMessages();
  const signedOut = useSignedOut();
  return useCallback(
    (error, form, special) => {
      if (isCancelledReauth(error)) {
        return;
      }
      signedOut(error);
      messages.showProblem(error, form, special);
    },
    [messages, signedOut],
  );
}

/**
 * A list of the account's section: `undefined` while it loads and when the API refuses it (a plugin
 * that is not installed answers 404), so the section is not shown.
 */
export function useSectionList<T>(key: string, load: () => Promise<T>): T | undefined {
  const query = useQuery({ queryKey: ['account', key], queryFn: load });
  const signedOut = useSignedOut();
  useEffect(() => {
    if (query.error) {
      signedOut(query.error);
    }
  }, [query.error, signedOut]);
  return query.isError ? undefined : query.data;
}

/** Loads a section's list again (after a change); resolves when it is loaded. */
export function useReload(key: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ['account', key] }), [queryClient, key]);
}

/**
 * A table that scrolls sideways inside its own box on a narrow screen (not the page). The box can
 * take the focus, so a keyboard scrolls it too; it is named by the table's caption.
 */
export function ScrollTable({
  id,
  caption,
  head,
  bodyId,
  children,
}: {
  id: string;
  caption: string;
  head: string[];
  bodyId?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table id={id}>
        <caption id={`${id}-caption`} className="visually-hidden">
          {caption}
        </caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody id={bodyId}>{children}</tbody>
      </table>
    </div>
  );
}
