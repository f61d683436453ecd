import { OptionalNotNull, Trim } from '../../../common/dto';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsStrongPassword, PASSWORD_MAX, PASSWORD_MIN } from '../../../common/password-strength';

/** What IsStrongPassword accepts, for the API document (class-validator's metadata names only the rule). */
const NEW_PASSWORD: ApiPropertyOptions = {
  type: 'string',
  minLength: PASSWORD_MIN,
  maxLength: PASSWORD_MAX,
  pattern: '^(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[0-9])',
  description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters with a lower-case letter, an upper-case letter and a digit`,
};

/** The core keys of `POST /users` (CONTRACTS 4); any other key must be a defined user field. */
export class CreateUserDto {
  @Trim()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsOptional()
  @IsStrongPassword()
  @ApiProperty({ ...NEW_PASSWORD, required: false })
  password?: string;

  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  roleIds?: string[];

  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @IsOptional()
  @IsBoolean()
  emailVerified?: boolean;

  @IsOptional()
  @IsBoolean()
  requirePasswordChange?: boolean;

  @IsOptional()
  @IsBoolean()
  sendInvite?: boolean;
}

/** The core keys of `PATCH /users/{id}`; any other key must be a defined user field. */
export class UpdateUserDto {
  @OptionalNotNull()
  @Trim()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email?: string;

  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(2048)
  @IsUrl({ require_tld: false, require_protocol: false }, { message: 'image must be a URL' })
  image?: string | null;

  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @OptionalNotNull()
  @IsBoolean()
  emailVerified?: boolean;
}

export class SetUserPasswordDto {
  @IsStrongPassword()
  @ApiProperty({ ...NEW_PASSWORD, required: true })
  password!: string;

  @IsOptional()
  @IsBoolean()
  requirePasswordChange?: boolean;
}

export class AssignRoleDto {
  @IsUUID('all', { message: 'roleId must be a role id' })
  roleId!: string;
}
