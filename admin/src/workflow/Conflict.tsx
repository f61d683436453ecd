import { useEffect, useId, useRef } from 'react';
import { type FieldDef, type FormValues, labelOf, toForm } from '../form/fields';
import { type Loaded, shownFormValue, shownValue } from './shared';

/** The fields whose saved value differs from the one the form was loaded with. */
export function changedSince(fields: FieldDef[], loadedWith: Loaded | undefined, server: Loaded): FieldDef[] {
  return fields.filter(
    (f) =>
      JSON.stringify(toForm(f, loadedWith?.item[f.name])) !== JSON.stringify(toForm(f, server.item[f.name])),
  );
}

/**
 * A save refused because someone saved the entry after this form was loaded: what they changed
 * (their value beside the one the form started from and the one in the form), then "Reload"
 * (take theirs, dropping the form's changes) or "Overwrite" (save the form over theirs).
 */
export function Conflict(props: {
  fields: FieldDef[];
  loadedWith: Loaded | undefined;
  server: Loaded;
  mine: FormValues;
  busy: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}) {
  const { fields, loadedWith, server, mine } = props;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const changed = changedSince(fields, loadedWith, server);
  const statusChanged = loadedWith?.item.status !== server.item.status;
  // The save's outcome is this panel: the focus goes to it.
  useEffect(() => heading.current?.focus(), [server]);
  return (
    <section className="conflict" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        Someone else saved this entry
      </h2>
      <p>
        Your changes are not saved: the entry was changed
        {server.item.updatedAt ? ` at ${new Date(server.item.updatedAt).toLocaleString()}` : ''} after you
        opened it.
        {statusChanged && server.item.status ? ` Its status is now ${server.item.status}.` : ''}
      </p>
      {changed.length > 0 ? (
        <div className="table-wrap">
          <table aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">When you opened it</th>
                <th scope="col">Saved now</th>
                <th scope="col">In your form</th>
              </tr>
            </thead>
            <tbody>
              {changed.map((f) => (
                <tr key={f.name}>
                  <th scope="row">{labelOf(f)}</th>
                  <td>{shownValue(f, loadedWith?.item[f.name])}</td>
                  <td>{shownValue(f, server.item[f.name])}</td>
                  <td>{shownFormValue(f, mine[f.name])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No field was changed{statusChanged ? ', only the status' : ''}.</p>
      )}
      <p>
        <strong>Reload</strong> takes the saved values and drops your changes. <strong>Overwrite</strong>{' '}
        saves the values of your form over theirs.
      </p>
      <div className="actions">
        <button type="button" className="button" disabled={props.busy} onClick={props.onReload}>
          Reload
        </button>
        <button type="button" className="button danger" disabled={props.busy} onClick={props.onOverwrite}>
          Overwrite
        </button>
      </div>
    </section>
  );
}
