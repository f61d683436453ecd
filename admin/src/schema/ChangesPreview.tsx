import { Scroll } from '../people/shared';
import { changeWords, type SchemaChange } from './model';

/** What "Preview changes" found: the API's planned changes, and the settings stored besides. */
export interface Plan {
  changes: SchemaChange[];
  destructive: boolean;
  /** Labels, open access, versions: stored with the definition, no table change. */
  settings: string[];
  /** A new definition: every field is added when it is created. */
  creating: boolean;
}

/**
 * The planned changes, a row each naming its field; a destructive one is marked in words and in
 * red (stored values are deleted), and the apply asks for confirmation.
 */
export function ChangesPreview({ plan, noun, slug }: { plan: Plan; noun: string; slug: string }) {
  const destructive = plan.changes.filter((c) => c.destructive).length;
  return (
    <>
      {plan.creating && (
        <p>
          Creating the {noun} <code>{slug || '(no slug yet)'}</code>
          {plan.changes.length ? ' adds these fields:' : ' with no fields.'}
        </p>
      )}
      {destructive > 0 && (
        <p className="destructive-warning" id="plan-destructive">
          {destructive === 1 ? 'One change deletes' : `${destructive} changes delete`} stored values: you will
          be asked to confirm.
        </p>
      )}
      {plan.changes.length > 0 && (
        <Scroll id="plan-table" caption="Planned changes">
          <thead>
            <tr>
              <th scope="col">Change</th>
              <th scope="col">Field</th>
              <th scope="col">Details</th>
              <th scope="col">Stored values</th>
            </tr>
          </thead>
          <tbody>
            {plan.changes.map((c, i) => {
              const words = changeWords(c);
              return (
                <tr key={i} className={c.destructive ? 'destructive' : undefined}>
                  <td>{words.kind}</td>
                  <th scope="row">
                    <code>{c.field === 'status' && c.kind === 'alter' ? 'status (drafts)' : c.field}</code>
                  </th>
                  <td className="wrap">{words.details}</td>
                  <td>
                    {c.destructive
                      ? 'Destructive: values are deleted'
                      : c.kind === 'add'
                        ? 'None yet'
                        : 'Kept'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Scroll>
      )}
      {plan.settings.length > 0 && (
        <>
          <h3>Settings</h3>
          <ul className="settings-changes">
            {plan.settings.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
