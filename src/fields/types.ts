/**
 * The field types the shared rules know. Content adds its own on top (rich text, relationships,
 * uploads, components: content/schema/validate.ts), user fields take exactly the value types.
 */

/** Types whose value is one scalar (a string, number or boolean): their text form is the value. */
export const SCALAR_FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'number',
  'checkbox',
  'date',
  'select',
] as const;

/** The types `checkValue` checks: the scalars and `json` (every user-field type, CONTRACTS 6). */
export const VALUE_FIELD_TYPES = [...SCALAR_FIELD_TYPES, 'json'] as const;
export type ValueFieldType = (typeof VALUE_FIELD_TYPES)[number];
