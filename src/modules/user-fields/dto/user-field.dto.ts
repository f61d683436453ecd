import { Allow } from 'class-validator';

/*
 * The bodies only declare their keys here (so the strict pipe refuses any other key with
 * `unknown_field`); the rules live in user-field-values.ts, shared with the boot check of
 * `users.fields`, so a body gets every problem in one answer and REST and config cannot drift.
 */

/** `POST /user-fields`. */
export class CreateUserFieldDto {
  @Allow()
  name!: unknown;

  @Allow()
  type!: unknown;

  /** Absent: the humanised name (`phoneNumber` -> `Phone number`). */
  @Allow()
  label?: unknown;

  @Allow()
  required?: unknown;

  /** `select` only: strings or `{ label, value }`. */
  @Allow()
  options?: unknown;
}

/** `PATCH /user-fields/{id}`: label, required, options. `name` and `type` may only repeat the current ones. */
export class UpdateUserFieldDto {
  @Allow()
  name?: unknown;

  @Allow()
  type?: unknown;

  @Allow()
  label?: unknown;

  @Allow()
  required?: unknown;

  @Allow()
  options?: unknown;
}

/** `PATCH /user-fields/reorder`: every field id exactly once, in the new order. */
export class ReorderUserFieldsDto {
  @Allow()
  ids!: unknown;
}
