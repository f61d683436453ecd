import { useId, useState } from 'react';
import { type Condition, type FilterField, OPERATOR_LABELS, operatorsOf } from '../form/filters';

/**
 * Conditions over the collection's fields, all or any of them, applied to the list. The applied
 * filter lives in the URL (`filter`), so a filtered list can be bookmarked or shared.
 */
export function FilterBuilder(props: {
  fields: FilterField[];
  initial: { mode: 'and' | 'or'; conditions: Condition[] };
  onApply: (mode: 'and' | 'or', conditions: Condition[]) => void;
}) {
  const { fields } = props;
  const id = useId();
  const [mode, setMode] = useState(props.initial.mode);
  const [rows, setRows] = useState<Condition[]>(props.initial.conditions);
  const update = (i: number, change: Partial<Condition>) =>
    setRows((r) => r.map((row, j) => (j === i ? { ...row, ...change } : row)));
  const add = () =>
    setRows((r) => [
      ...r,
      { field: fields[0]?.name ?? '', op: operatorsOf(fields[0])[0] ?? 'equals', value: '' },
    ]);
  return (
    <fieldset className="filters">
      <legend>Filters</legend>
      {rows.length > 1 && (
        <div className="field inline">
          <label htmlFor={`${id}-mode`}>Match</label>
          <select id={`${id}-mode`} value={mode} onChange={(e) => setMode(e.target.value as 'and' | 'or')}>
            <option value="and">all conditions</option>
            <option value="or">any condition</option>
          </select>
        </div>
      )}
      <ol className="conditions">
        {rows.map((row, i) => {
          const field = fields.find((f) => f.name === row.field);
          const ops = operatorsOf(field);
          const n = i + 1;
          return (
            <li key={i} className="condition">
              <select
                aria-label={`Field of condition ${n}`}
                value={row.field}
                onChange={(e) => {
                  const next = fields.find((f) => f.name === e.target.value);
                  const nextOps = operatorsOf(next);
                  update(i, {
                    field: e.target.value,
                    op: nextOps.includes(row.op) ? row.op : nextOps[0],
                    value: '',
                  });
                }}
              >
                {fields.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.label}
                  </option>
                ))}
              </select>
              <select
                aria-label={`Operator of condition ${n}`}
                value={row.op}
                onChange={(e) => update(i, { op: e.target.value })}
              >
                {ops.map((op) => (
                  <option key={op} value={op}>
                    {OPERATOR_LABELS[op]}
                  </option>
                ))}
              </select>
              {row.op === 'exists' || field?.kind === 'boolean' ? (
                <select
                  aria-label={`Value of condition ${n}`}
                  value={row.value || 'true'}
                  onChange={(e) => update(i, { value: e.target.value })}
                >
                  <option value="true">{row.op === 'exists' ? 'yes' : 'true'}</option>
                  <option value="false">{row.op === 'exists' ? 'no' : 'false'}</option>
                </select>
              ) : (
                <input
                  aria-label={`Value of condition ${n}`}
                  type={
                    field?.kind === 'date' && row.op !== 'in' && row.op !== 'not_in'
                      ? 'datetime-local'
                      : 'text'
                  }
                  step={field?.kind === 'date' ? 1 : undefined}
                  inputMode={field?.kind === 'number' ? 'decimal' : undefined}
                  value={row.value}
                  onChange={(e) => update(i, { value: e.target.value })}
                />
              )}
              <button
                type="button"
                className="button"
                onClick={() => setRows((r) => r.filter((_, j) => j !== i))}
              >
                Remove condition {n}
              </button>
            </li>
          );
        })}
      </ol>
      <div className="actions">
        <button type="button" className="button" onClick={add} disabled={!fields.length}>
          Add condition
        </button>
        <button type="button" className="button primary" onClick={() => props.onApply(mode, rows)}>
          Apply filters
        </button>
        {rows.length > 0 && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setRows([]);
              props.onApply(mode, []);
            }}
          >
            Clear filters
          </button>
        )}
      </div>
    </fieldset>
  );
}
