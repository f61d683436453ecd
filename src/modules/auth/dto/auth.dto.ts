import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsStrongPassword } from '../passwords';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class LoginDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password!: string;
}

export class SetupDto {
  @Transform(trim)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsStrongPassword()
  password!: string;
}

export class RegisterDto {
  @Transform(trim)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @IsStrongPassword()
  password!: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
}

export class EmailOnlyDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email!: string;
}

export class TokenDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  token!: string;
}

export class ResetPasswordDto extends TokenDto {
  @IsStrongPassword()
  password!: string;
}

export class AcceptInviteDto extends TokenDto {
  @IsStrongPassword()
  password!: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;
}

export class ChangePasswordDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  currentPassword!: string;

  @IsStrongPassword()
  newPassword!: string;
}

export class SetInitialPasswordDto {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  pendingToken?: string;

  @IsStrongPassword()
  newPassword!: string;
}
