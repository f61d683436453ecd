import { Trim } from '../../../common/dto';
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
import { IsStrongPassword } from '../../../common/password-strength';

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
  password?: string;

  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  roleIds?: string[];

  @IsOptional()
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
  @IsOptional()
  @Trim()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email?: string;

  @IsOptional()
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

  @IsOptional()
  @IsBoolean()
  isActive?: boolean;

  @IsOptional()
  @IsBoolean()
  emailVerified?: boolean;
}

export class SetUserPasswordDto {
  @IsStrongPassword()
  password!: string;

  @IsOptional()
  @IsBoolean()
  requirePasswordChange?: boolean;
}

export class AssignRoleDto {
  @IsUUID('all', { message: 'roleId must be a role id' })
  roleId!: string;
}
