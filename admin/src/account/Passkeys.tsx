import { content } from '../api';
import { text, useAction, useForm, useMessages } from '../auth/messages';
import { PasskeyNameField, registerPasskey } from '../auth/second-factors';
import { passkeysSupported } from '../auth/webauthn';
import { day, ScrollTable, useReload, useReport, useSectionList } from './shared';

/** The passkey plugin's routes (not in the typed document; 404 without the plugin). */
const PASSKEYS = '/plugins/passkeys';

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const loadPasskeys = () =>
  content<{ items: Passkey[] }>('GET', `${PASSKEYS}/credentials`, { query: { limit: 100 } });

/** The person's passkeys: listed, added through the browser's prompt (WebAuthn), deleted. */
export function Passkeys() {
  const list = useSectionList('passkeys', loadPasskeys);
  if (!list) {
    return null;
  }
  return (
    <section id="passkeys" aria-labelledby="passkeys-title">
      <h3 id="passkeys-title" tabIndex={-1}>
        Passkeys
      </h3>
      <p>
        A passkey signs you in with your device’s screen lock or a security key: on its own, or after your
        password.
      </p>
      {list.items.length > 0 ? (
        <ScrollTable
          id="passkeys-table"
          bodyId="passkeys-body"
          caption="Your passkeys"
          head={['Name', 'Created', 'Last used', 'Actions']}
        >
          {list.items.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ScrollTable>
      ) : (
        <p id="passkeys-empty">You have no passkeys.</p>
      )}
      {/* A browser without WebAuthn lists and deletes passkeys, but cannot add one. */}
      {passkeysSupported() && <AddPasskey />}
    </section>
  );
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const reload = useReload('passkeys');
  const messages = useMessages();
  const report = useReport();
  const remove = useAction();
  return (
    <tr>
      <th scope="row">{passkey.name}</th>
      <td>{day(passkey.createdAt)}</td>
      <td>{passkey.lastUsedAt ? day(passkey.lastUsedAt) : 'Never'}</td>
      <td>
        <button
          type="button"
          aria-label={`Delete the passkey ${passkey.name}`}
          disabled={remove.busy}
          onClick={() => {
            if (!window.confirm(`Delete the passkey ${passkey.name}? It cannot sign you in any more.`)) {
              return;
            }
            remove.run(async () => {
              try {
                await content('DELETE', `${PASSKEYS}/credentials/${encodeURIComponent(passkey.id)}`);
              } catch (e) {
                report(e);
                return;
              }
              await reload();
              messages.showNotice(`The passkey ${passkey.name} is deleted.`, true);
            });
          }}
        >
          Delete
        </button>
      </td>
    </tr>
  );
}

/** register/options, the browser's prompt to create a passkey, register/verify. */
function AddPasskey() {
  const form = useForm();
  const messages = useMessages();
  const report = useReport();
  const reload = useReload('passkeys');
  return (
    <div id="passkey-add">
      <h4 id="passkey-form-title">Add a passkey</h4>
      <form
        id="passkey-form"
        method="post"
        aria-labelledby="passkey-form-title"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (el, data) => {
          try {
            const added = await registerPasskey<{ item: Passkey }>(text(data, 'name').trim());
            if (!added.ok) {
              messages.showError(added.message);
              return;
            }
            const r = added.answer;
            el.reset();
            await reload();
            messages.showNotice(`The passkey ${r.item.name} is added.`, true);
          } catch (e) {
            report(e, form);
          }
        })}
      >
        <PasskeyNameField id="passkey-name" form={form} />
        <button type="submit" disabled={form.busy}>
          Add a passkey
        </button>
      </form>
    </div>
  );
}
