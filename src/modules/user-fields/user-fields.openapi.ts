/**
 * Answer schemas of the user-field routes (src/common/api-schema.ts): `UserField`, the definition
 * record of CONTRACTS 12 (`toUserFieldDefinition` in user-fields.service.ts).
 */
import { BOOLEAN, INTEGER, namedSchema, objectSchema, STRING, UUID } from '../../common/api-schema';
import { USER_FIELD_TYPES } from './user-field-values';

/** An option of a select: its value, or a label with its value (src/fields/options.ts). */
const OPTION = { anyOf: [STRING, objectSchema({ label: STRING, value: STRING })] };

/** A definition; `options` only on a select that has them. */
export const USER_FIELD = namedSchema(
  'UserField',
  objectSchema(
    {
      id: UUID,
      name: STRING,
      type: { type: 'string', enum: [...USER_FIELD_TYPES] },
      label: STRING,
      required: BOOLEAN,
      options: { type: 'array', items: OPTION },
      order: INTEGER,
      source: { type: 'string', enum: ['code', 'ui'] },
    },
    ['options'],
  ),
);
