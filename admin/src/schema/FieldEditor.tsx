import type { ReactNode } from 'react';
import { type FieldDraft, type FieldType, TAKES, TYPES } from './model';

/**
 * One field of the builder: a group named "Field n: <label>" holding its controls (only those its
 * type takes), each named by a short label so it is found within the group, and tied to the API's
 * message for it (`fields.<n>.<key>`).
 */
export function FieldEditor(props: {
  field: FieldDraft;
  index: number;
  count: number;
  errors: Record<string, string>;
  collections: ReadonlyArray<{ slug: string; label: string }>;
  groups: ReadonlyArray<{ slug: string; label: string }>;
  onChange: (patch: Partial<FieldDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { field: f, index, count, errors, onChange } = props;
  const id = (key: string) => `${f.key}-${key}`;
  const error = (key: string) => errors[`fields.${index}.${key}`];
  /** The describing ids and invalid state of the control for `key`. */
  const aria = (key: string, hint = false) => ({
    'aria-describedby': [hint ? `${id(key)}-hint` : '', `${id(key)}-error`].filter(Boolean).join(' '),
    'aria-invalid': error(key) !== undefined ? true : undefined,
  });
  const slot = (key: string) => (
    <p className="field-error" id={`${id(key)}-error`}>
      {error(key)}
    </p>
  );
  const hasMany = f.hasMany && TAKES.hasMany(f.type);
  const title = f.label.trim() || f.name.trim();

  const setType = (type: FieldType) => {
    const patch: Partial<FieldDraft> = { type };
    // A target to start from: uploads point to media; the first collection or group otherwise.
    if (TAKES.relationTo(type) && !f.relationTo) {
      patch.relationTo = type === 'upload' ? 'media' : (props.collections[0]?.slug ?? '');
    }
    if (TAKES.fieldGroup(type) && !f.fieldGroup) {
      patch.fieldGroup = props.groups[0]?.slug ?? '';
    }
    onChange(patch);
  };

  const check = (key: 'required' | 'unique' | 'index' | 'hasMany' | 'repeatable', label: ReactNode) => (
    <div className="field checkbox">
      <input
        id={id(key)}
        type="checkbox"
        checked={f[key]}
        onChange={(e) => onChange({ [key]: e.target.checked })}
        {...aria(key)}
      />
      <label htmlFor={id(key)}>{label}</label>
      {slot(key)}
    </div>
  );

  return (
    <fieldset className="schema-field" id={id('group')} tabIndex={-1}>
      <legend>
        Field {index + 1}
        {title ? `: ${title}` : ''}
      </legend>
      <div className="field-grid">
        <div className="field">
          <label htmlFor={id('name')}>Name</label>
          <input
            id={id('name')}
            value={f.name}
            required
            autoComplete="off"
            spellCheck={false}
            maxLength={63}
            onChange={(e) => onChange({ name: e.target.value })}
            {...aria('name', true)}
          />
          <p className="hint" id={`${id('name')}-hint`}>
            The key in entries and in the API: a letter, then letters, digits or _.
          </p>
          {slot('name')}
        </div>
        <div className="field">
          <label htmlFor={id('label')}>Label</label>
          <input
            id={id('label')}
            value={f.label}
            maxLength={200}
            onChange={(e) => onChange({ label: e.target.value })}
            {...aria('label')}
          />
          {slot('label')}
        </div>
        <div className="field">
          <label htmlFor={id('type')}>Type</label>
          <select
            id={id('type')}
            value={f.type}
            onChange={(e) => setType(e.target.value as FieldType)}
            {...aria('type')}
          >
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
          {slot('type')}
        </div>
        {TAKES.relationTo(f.type) && (
          <div className="field">
            <label htmlFor={id('relationTo')}>Related collection</label>
            <select
              id={id('relationTo')}
              value={f.relationTo}
              onChange={(e) => onChange({ relationTo: e.target.value })}
              {...aria('relationTo')}
            >
              {!props.collections.some((c) => c.slug === f.relationTo) && (
                <option value={f.relationTo}>{f.relationTo || '(choose one)'}</option>
              )}
              {props.collections.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.label} ({c.slug})
                </option>
              ))}
            </select>
            {slot('relationTo')}
          </div>
        )}
        {TAKES.fieldGroup(f.type) && (
          <div className="field">
            <label htmlFor={id('fieldGroup')}>Field group</label>
            <select
              id={id('fieldGroup')}
              value={f.fieldGroup}
              onChange={(e) => onChange({ fieldGroup: e.target.value })}
              {...aria('fieldGroup')}
            >
              {!props.groups.some((g) => g.slug === f.fieldGroup) && (
                <option value={f.fieldGroup}>{f.fieldGroup || '(choose one)'}</option>
              )}
              {props.groups.map((g) => (
                <option key={g.slug} value={g.slug}>
                  {g.label} ({g.slug})
                </option>
              ))}
            </select>
            {slot('fieldGroup')}
          </div>
        )}
        {TAKES.options(f.type) && (
          <div className="field wide">
            <label htmlFor={id('options')}>Options</label>
            <textarea
              id={id('options')}
              rows={4}
              value={f.options}
              onChange={(e) => onChange({ options: e.target.value })}
              {...aria('options', true)}
            />
            <p className="hint" id={`${id('options')}-hint`}>
              One a line: a value, or Label = value.
            </p>
            {slot('options')}
          </div>
        )}
        {TAKES.range(f.type) && (
          <>
            <div className="field">
              <label htmlFor={id('min')}>Smallest value</label>
              <input
                id={id('min')}
                type="number"
                step="any"
                value={f.min}
                onChange={(e) => onChange({ min: e.target.value })}
                {...aria('min')}
              />
              {slot('min')}
            </div>
            <div className="field">
              <label htmlFor={id('max')}>Largest value</label>
              <input
                id={id('max')}
                type="number"
                step="any"
                value={f.max}
                onChange={(e) => onChange({ max: e.target.value })}
                {...aria('max')}
              />
              {slot('max')}
            </div>
          </>
        )}
        {TAKES.defaultValue(f.type) && (
          <DefaultValue field={f} id={id('defaultValue')} aria={aria} onChange={onChange} slot={slot} />
        )}
      </div>
      <div className="checks">
        {check('required', 'Required')}
        {TAKES.unique(f.type, hasMany) && check('unique', 'Unique')}
        {TAKES.index(f.type) && check('index', 'Indexed (faster filters and sorting)')}
        {TAKES.hasMany(f.type) && check('hasMany', 'Many values')}
        {TAKES.repeatable(f.type) && check('repeatable', 'Repeatable')}
      </div>
      <div className="actions field-actions">
        <button
          type="button"
          className="button"
          id={id('up')}
          disabled={index === 0}
          onClick={() => props.onMove(-1)}
        >
          Move up
        </button>
        <button
          type="button"
          className="button"
          id={id('down')}
          disabled={index === count - 1}
          onClick={() => props.onMove(1)}
        >
          Move down
        </button>
        <button type="button" className="button danger" id={id('remove')} onClick={props.onRemove}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}

/** The default value's control: a choice for a checkbox, JSON text for documents, else text. */
function DefaultValue(props: {
  field: FieldDraft;
  id: string;
  aria: (key: string, hint?: boolean) => Record<string, unknown>;
  onChange: (patch: Partial<FieldDraft>) => void;
  slot: (key: string) => ReactNode;
}) {
  const { field: f, id, aria, onChange, slot } = props;
  const set = (defaultValue: string) => onChange({ defaultValue });
  const hint =
    f.type === 'json' || f.type === 'richText'
      ? 'JSON, or empty for none.'
      : f.type === 'select' && f.hasMany
        ? 'Option values, separated by commas; empty for none.'
        : f.type === 'select'
          ? 'One of the option values; empty for none.'
          : f.type === 'date'
            ? 'An ISO date and time (2026-01-31T09:00:00Z); empty for none.'
            : 'Empty for none.';
  let control: ReactNode;
  if (f.type === 'checkbox') {
    control = (
      <select
        id={id}
        value={f.defaultValue}
        onChange={(e) => set(e.target.value)}
        {...aria('defaultValue', true)}
      >
        <option value="">No default</option>
        <option value="true">Checked</option>
        <option value="false">Not checked</option>
      </select>
    );
  } else if (f.type === 'json' || f.type === 'richText' || f.type === 'textarea') {
    control = (
      <textarea
        id={id}
        rows={3}
        className={f.type === 'textarea' ? undefined : 'code'}
        spellCheck={f.type === 'textarea' ? undefined : false}
        value={f.defaultValue}
        onChange={(e) => set(e.target.value)}
        {...aria('defaultValue', true)}
      />
    );
  } else {
    control = (
      <input
        id={id}
        type={f.type === 'number' ? 'number' : 'text'}
        step={f.type === 'number' ? 'any' : undefined}
        value={f.defaultValue}
        onChange={(e) => set(e.target.value)}
        {...aria('defaultValue', true)}
      />
    );
  }
  return (
    <div
      className={f.type === 'json' || f.type === 'richText' || f.type === 'textarea' ? 'field wide' : 'field'}
    >
      <label htmlFor={id}>Default value</label>
      {control}
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {slot('defaultValue')}
    </div>
  );
}
