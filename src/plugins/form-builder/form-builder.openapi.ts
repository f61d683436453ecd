/**
 * Answer schemas of the form-builder routes (the OpenAPI document), written from
 * form-builder.controller.ts, `formRecord` and `listSubmissions` (form-builder.store.ts), the field
 * rules of form-definition.ts and the values form-submission.ts stores.
 */
import {
  BOOLEAN,
  DATE_TIME,
  INTEGER,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
  type JsonSchema,
} from '../api';
import { FIELD_TYPES, FORM_STATUSES } from './form-definition';

const NUMBER: JsonSchema = { type: 'number' };

/** A field of a form, as `readDefinition` stores it: the type-specific keys only where given. */
export const FORM_FIELD = namedSchema(
  'Forms_Field',
  objectSchema(
    {
      name: STRING,
      type: { type: 'string', enum: [...FIELD_TYPES] },
      label: STRING,
      required: BOOLEAN,
      minLength: { ...INTEGER, minimum: 0, description: 'text, textarea and email fields' },
      maxLength: { ...INTEGER, minimum: 1, description: 'text, textarea and email fields' },
      min: { ...NUMBER, description: 'number fields' },
      max: { ...NUMBER, description: 'number fields' },
      pattern: { ...STRING, description: 'text, textarea and email fields; the whole value must match' },
      options: { type: 'array', items: STRING, description: 'select fields' },
    },
    ['minLength', 'maxLength', 'min', 'max', 'pattern', 'options'],
  ),
);

const formProperties = {
  id: UUID,
  slug: STRING,
  name: STRING,
  description: NULLABLE_STRING,
  status: { type: 'string', enum: [...FORM_STATUSES] },
  fields: { type: 'array', items: FORM_FIELD },
  honeypot: { ...NULLABLE_STRING, description: 'A field no person fills: a submission with it is dropped' },
  notifyEmail: { ...NULLABLE_STRING, description: 'Where a notification of each submission goes' },
  createdAt: DATE_TIME,
  updatedAt: DATE_TIME,
};

/** A form (`FormRecord`), as its administrators see it. */
export const FORM = namedSchema('Forms_Form', objectSchema(formProperties));

/** An open form as anyone reads it (`publicForm`): no notification address. */
export const PUBLIC_FORM = namedSchema(
  'Forms_PublicForm',
  objectSchema(Object.fromEntries(Object.entries(formProperties).filter(([k]) => k !== 'notifyEmail'))),
);

/**
 * A stored submission. `data` holds the values of the form's fields at the time (a field removed
 * since keeps its value): a text, an option, a number or a checkbox's true.
 */
export const SUBMISSION = namedSchema(
  'Forms_Submission',
  objectSchema({
    id: UUID,
    data: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
    createdAt: DATE_TIME,
  }),
);

/** `POST /forms/{slug}/submit`: the submission's id. */
export const SUBMISSION_RECEIVED = namedSchema(
  'Forms_SubmissionReceived',
  objectSchema({ message: STRING, id: UUID }),
);
