import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  CUSTOM_MAX_BYTES,
  DATE_FORMAT_MAX_LENGTH,
  SITE_DESCRIPTION_MAX_LENGTH,
  SITE_NAME_MAX_LENGTH,
  SITE_URL_MAX_LENGTH,
  TIMEZONE_MAX_LENGTH,
} from '../settings-input';

/*
 * The body only declares its keys (so the strict pipe refuses any other key with
 * `unknown_field`); the rules live in settings-input.ts, so a body gets every problem in one answer.
 * `@ApiProperty` describes those rules to the API document only: it validates nothing.
 */

/** `PATCH /general-settings`: any of the keys; absent ones are left as they are. */
export class UpdateGeneralSettingsDto {
  @Allow()
  @ApiProperty({
    required: false,
    type: 'string',
    minLength: 1,
    maxLength: SITE_NAME_MAX_LENGTH,
    description: `One line of at most ${SITE_NAME_MAX_LENGTH} characters once trimmed`,
  })
  siteName?: unknown;

  @Allow()
  @ApiProperty({
    required: false,
    type: 'string',
    nullable: true,
    maxLength: SITE_DESCRIPTION_MAX_LENGTH,
    description: `At most ${SITE_DESCRIPTION_MAX_LENGTH} characters; empty or null clears it`,
  })
  siteDescription?: unknown;

  @Allow()
  @ApiProperty({
    required: false,
    type: 'string',
    nullable: true,
    maxLength: SITE_URL_MAX_LENGTH,
    description: 'An absolute http:// or https:// URL without credentials; empty or null clears it',
  })
  siteUrl?: unknown;

  @Allow()
  @ApiProperty({
    required: false,
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'The id of a media entry, or null for no logo',
  })
  logoMediaId?: unknown;

  @Allow()
  @ApiProperty({
    required: false,
    type: 'string',
    minLength: 1,
    maxLength: TIMEZONE_MAX_LENGTH,
    description: 'An IANA time zone name such as UTC or Europe/Paris (stored in its canonical spelling)',
  })
  timezone?: unknown;

  @Allow()
  @ApiProperty({
    required: false,
    type: 'string',
    minLength: 1,
    maxLength: DATE_FORMAT_MAX_LENGTH,
    description: `One line of at most ${DATE_FORMAT_MAX_LENGTH} characters once trimmed`,
  })
  dateFormat?: unknown;

  @Allow()
  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: true,
    description: `Any JSON object of the site's own settings, at most ${CUSTOM_MAX_BYTES} bytes as JSON`,
  })
  custom?: unknown;
}
