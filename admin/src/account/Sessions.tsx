import { api, ApiError, unwrap } from '../api';
import type { components } from '../../../src/client';
import { useAction, useMessages } from '../auth/messages';
import { ScrollTable, useReload, useReport, useSectionList, when } from './shared';

type Session = components['schemas']['Session'];

const loadSessions = () => unwrap(api.GET('/admin/api/auth/sessions'));

/** Every place the person is signed in (`GET /auth/sessions`): end one, or all but this one. */
export function Sessions() {
  const list = useSectionList('sessions', loadSessions);
  const reload = useReload('sessions');
  const messages = useMessages();
  const report = useReport();
  const endOthers = useAction();
  if (!list) {
    return null;
  }
  const others = list.items.filter((s) => !s.current).length;
  return (
    <section id="sessions" aria-labelledby="sessions-title">
      <h3 id="sessions-title" tabIndex={-1}>
        Sessions
      </h3>
      <p>
        Every place you are signed in. End the ones you do not know or no longer use; to end this one, sign
        out.
      </p>
      <ScrollTable
        id="sessions-table"
        bodyId="sessions-body"
        caption="Where you are signed in, most recently used first"
        head={['Browser or app', 'IP address', 'Started', 'Last used', 'Actions']}
      >
        {list.items.map((s) => (
          <SessionRow key={s.id} session={s} />
        ))}
      </ScrollTable>
      {others > 0 && (
        <button
          type="button"
          id="sessions-end-others"
          disabled={endOthers.busy}
          onClick={() =>
            endOthers.run(async () => {
              try {
                const r = await unwrap(api.DELETE('/admin/api/auth/sessions'));
                await reload();
                const n = r.ended;
                messages.showNotice(
                  `${n === 1 ? '1 other session is ended.' : `${n} other sessions are ended.`} You are still signed in here.`,
                  true,
                );
              } catch (e) {
                report(e);
              }
            })
          }
        >
          Sign out everywhere else
        </button>
      )}
    </section>
  );
}

function SessionRow({ session: s }: { session: Session }) {
  const reload = useReload('sessions');
  const messages = useMessages();
  const report = useReport();
  const end = useAction();
  const agent = s.userAgent || 'Unknown';
  return (
    <tr>
      <th scope="row" className="agent">
        {agent}
      </th>
      <td>{s.ip || '—'}</td>
      <td>{when(s.createdAt)}</td>
      <td>{when(s.lastUsedAt)}</td>
      <td>
        {s.current ? (
          <strong>This device</strong>
        ) : (
          <button
            type="button"
            aria-label={`End the session of ${s.userAgent || 'an unknown browser'}, last used ${when(s.lastUsedAt)}`}
            disabled={end.busy}
            onClick={() =>
              end.run(async () => {
                let ended = true;
                try {
                  await unwrap(
                    api.DELETE('/admin/api/auth/sessions/{id}', { params: { path: { id: s.id } } }),
                  );
                } catch (e) {
                  if (!(e instanceof ApiError && e.status === 404)) {
                    report(e);
                    return;
                  }
                  ended = false;
                }
                await reload();
                messages.showNotice(
                  ended
                    ? 'The session is ended: that device is signed out.'
                    : 'That session had ended already.',
                  true,
                );
              })
            }
          >
            End
          </button>
        )}
      </td>
    </tr>
  );
}
