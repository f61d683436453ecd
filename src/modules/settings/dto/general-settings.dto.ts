import { Allow } from 'class-validator';

/*
 * The body only declares its keys (so the strict pipe refuses any other key with
 * `unknown_field`); the rules live in settings-input.ts, so a body gets every problem in one answer.
 */

/** `PATCH /general-settings`: any of the keys; absent ones are left as they are. */
export class UpdateGeneralSettingsDto {
  @Allow()
  siteName?: unknown;

  @Allow()
  siteDescription?: unknown;

  @Allow()
  siteUrl?: unknown;

  @Allow()
  logoMediaId?: unknown;

  @Allow()
  timezone?: unknown;

  @Allow()
  dateFormat?: unknown;

  @Allow()
  custom?: unknown;
}
