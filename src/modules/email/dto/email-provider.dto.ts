import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull, Trim } from './validators';

/** A host name or an IP address: no spaces, no scheme, no path. */
const HOST = /^[A-Za-z0-9._:\-[\]]+$/;

export class SmtpConfigDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(253)
  @Matches(HOST, { message: 'host must be a host name or an IP address' })
  host!: string;

  @IsInt()
  @Min(1)
  @Max(65535)
  port!: number;

  /** Implicit TLS (port 465). Otherwise STARTTLS is used when the server offers it. */
  @OptionalNotNull()
  @IsBoolean()
  secure?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(320)
  user?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  password?: string | null;
}

export class UpdateSmtpConfigDto {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(253)
  @Matches(HOST, { message: 'host must be a host name or an IP address' })
  host?: string;

  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(65535)
  port?: number;

  @OptionalNotNull()
  @IsBoolean()
  secure?: boolean;

  /** `null` removes the user name. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  user?: string | null;

  /** Absent or `"********"`: keep the stored password; `null`: remove it; a string: replace it. */
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  password?: string | null;
}

export class CreateEmailProviderDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @OptionalNotNull()
  @IsIn(['smtp'])
  type?: 'smtp';

  @Trim()
  @IsEmail({}, { message: 'fromEmail must be a valid email address' })
  @MaxLength(320)
  fromEmail!: string;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(200)
  fromName?: string | null;

  @IsDefined()
  @ValidateNested()
  @Type(() => SmtpConfigDto)
  config!: SmtpConfigDto;

  /** Absent: the provider becomes the default when there is none yet. */
  @OptionalNotNull()
  @IsBoolean()
  isDefault?: boolean;
}

export class UpdateEmailProviderDto {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @OptionalNotNull()
  @IsIn(['smtp'])
  type?: 'smtp';

  @OptionalNotNull()
  @Trim()
  @IsEmail({}, { message: 'fromEmail must be a valid email address' })
  @MaxLength(320)
  fromEmail?: string;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(200)
  fromName?: string | null;

  @OptionalNotNull()
  @ValidateNested()
  @Type(() => UpdateSmtpConfigDto)
  config?: UpdateSmtpConfigDto;
}

export class TestEmailProviderDto {
  @Trim()
  @IsEmail({}, { message: 'to must be a valid email address' })
  @MaxLength(320)
  to!: string;
}
