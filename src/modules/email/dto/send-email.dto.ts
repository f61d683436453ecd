import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { IsTemplateVariables, TEMPLATE_VARIABLES, Trim } from './validators';

export class SendEmailDto {
  @Trim()
  @IsEmail({}, { message: 'to must be a valid email address' })
  @MaxLength(320)
  to!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(998)
  subject!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(500_000)
  html!: string;

  /** The plain-text part; absent: derived from the HTML. */
  @IsOptional()
  @IsString()
  @MaxLength(500_000)
  text?: string | null;
}

export class SendTemplateEmailDto {
  @Trim()
  @IsEmail({}, { message: 'to must be a valid email address' })
  @MaxLength(320)
  to!: string;

  /** The template's slug; an unknown slug is 404 NOT_FOUND. */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(63)
  template!: string;

  @IsOptional()
  @IsTemplateVariables()
  @ApiProperty(TEMPLATE_VARIABLES)
  variables?: Record<string, string | number | boolean | null>;
}
