import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { MAX_LABEL_LENGTH, MAX_OPTION_LENGTH, MAX_OPTIONS } from '../../../fields';
import { USER_FIELD_NAME, USER_FIELD_TYPES } from '../user-field-values';

/*
 * The bodies only declare their keys here (so the strict pipe refuses any other key with
 * `unknown_field`); the rules live in user-field-values.ts, shared with the boot check of
 * `users.fields`, so a body gets every problem in one answer and REST and config cannot drift.
 * `@ApiProperty` describes those rules to the API document only: it validates nothing.
 */

const NAME: ApiPropertyOptions = {
  type: 'string',
  pattern: USER_FIELD_NAME.source,
  description:
    "A letter, then letters, digits or _ (at most 63 characters); not a name of the user record, the account or the access token's claims (`email`, `password`, `roles`, `sub`...), in any letter case",
};
const TYPE: ApiPropertyOptions = { type: 'string', enum: [...USER_FIELD_TYPES] };
const LABEL: ApiPropertyOptions = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_LABEL_LENGTH,
  description: `At most ${MAX_LABEL_LENGTH} characters once trimmed; absent: the humanised name (\`phoneNumber\` -> \`Phone number\`)`,
};
const REQUIRED: ApiPropertyOptions = {
  type: 'boolean',
  description: 'Whether every user record must hold a value (default false)',
};
const OPTION_TEXT = { type: 'string', minLength: 1, maxLength: MAX_OPTION_LENGTH };
const OPTIONS: ApiPropertyOptions = {
  type: 'array',
  nullable: true,
  minItems: 1,
  maxItems: MAX_OPTIONS,
  items: {
    anyOf: [
      OPTION_TEXT,
      {
        type: 'object',
        properties: { label: OPTION_TEXT, value: OPTION_TEXT },
        required: ['label', 'value'],
        additionalProperties: false,
      },
    ],
  },
  description: `\`select\` only, and required there: 1 to ${MAX_OPTIONS} options, each a value or \`{ label, value }\` (values unique, at most ${MAX_OPTION_LENGTH} characters once trimmed); other types take none`,
};

/** `POST /user-fields`. */
export class CreateUserFieldDto {
  @Allow()
  @ApiProperty({ ...NAME, required: true })
  name!: unknown;

  @Allow()
  @ApiProperty({ ...TYPE, required: true })
  type!: unknown;

  /** Absent: the humanised name (`phoneNumber` -> `Phone number`). */
  @Allow()
  @ApiProperty({ ...LABEL, required: false })
  label?: unknown;

  @Allow()
  @ApiProperty({ ...REQUIRED, required: false })
  required?: unknown;

  /** `select` only: strings or `{ label, value }`. */
  @Allow()
  @ApiProperty({ ...OPTIONS, required: false })
  options?: unknown;
}

/** `PATCH /user-fields/{id}`: label, required, options. `name` and `type` may only repeat the current ones. */
export class UpdateUserFieldDto {
  @Allow()
  @ApiProperty({ ...NAME, required: false, description: 'Only the current name: a field is never renamed' })
  name?: unknown;

  @Allow()
  @ApiProperty({ ...TYPE, required: false, description: 'Only the current type: a field never changes type' })
  type?: unknown;

  @Allow()
  @ApiProperty({ ...LABEL, required: false })
  label?: unknown;

  @Allow()
  @ApiProperty({ ...REQUIRED, required: false })
  required?: unknown;

  @Allow()
  @ApiProperty({ ...OPTIONS, required: false })
  options?: unknown;
}

/** `PATCH /user-fields/reorder`: every field id exactly once, in the new order. */
export class ReorderUserFieldsDto {
  @Allow()
  @ApiProperty({
    required: true,
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    uniqueItems: true,
    description: 'Every user field id exactly once, in the new order',
  })
  ids!: unknown;
}
