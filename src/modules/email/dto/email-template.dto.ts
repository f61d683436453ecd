import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { TEMPLATE_SLUG_PATTERN } from '../email.constants';
import { ApiProperty } from '@nestjs/swagger';
import { IsTemplateVariables, TEMPLATE_VARIABLES, OptionalNotNull, Trim } from './validators';

const MAX_BODY = 200_000;

export class CreateEmailTemplateDto {
  @Trim()
  @IsString()
  @Matches(TEMPLATE_SLUG_PATTERN, {
    message: 'slug must start with a lower-case letter and hold only a-z, 0-9 and - (at most 63 characters)',
  })
  slug!: string;

  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(998)
  subject!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_BODY)
  html!: string;

  /** The plain-text part; absent or null: derived from the HTML when sending. */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_BODY)
  text?: string | null;
}

export class UpdateEmailTemplateDto {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @Matches(TEMPLATE_SLUG_PATTERN, {
    message: 'slug must start with a lower-case letter and hold only a-z, 0-9 and - (at most 63 characters)',
  })
  slug?: string;

  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(998)
  subject?: string;

  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_BODY)
  html?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_BODY)
  text?: string | null;
}

export class UpdateEmailLayoutDto {
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_BODY)
  header?: string;

  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_BODY)
  footer?: string;
}

export class PreviewEmailTemplateDto {
  @IsOptional()
  @IsTemplateVariables()
  @ApiProperty(TEMPLATE_VARIABLES)
  variables?: Record<string, string | number | boolean | null>;
}
