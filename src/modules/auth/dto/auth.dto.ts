import { Trim } from '../../../common/dto';
import { IsDefined, IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsStrongPassword } from '../../../common/password-strength';

export class LoginDto {
  @Trim()
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
  @Trim()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsStrongPassword()
  password!: string;
}

export class RegisterDto {
  @Trim()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @IsStrongPassword()
  password!: string;

  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
}

export class EmailOnlyDto {
  @Trim()
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
  @Trim()
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

/** `POST /auth/reauthenticate`: the password, or a second-factor code (one of the two). */
export class ReauthenticateDto {
  @ValidateIf((o: ReauthenticateDto) => o.code === undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password?: string;

  @ValidateIf((o: ReauthenticateDto) => o.password === undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  code?: string;
}

export class SetInitialPasswordDto {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  pendingToken?: string;

  @IsStrongPassword()
  newPassword!: string;
}

/** `POST /auth/challenge/resolve`: the token (or the `svc_pending` cookie) and the answer, as the challenge reads it. */
export class ResolveChallengeDto {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  pendingToken?: string;

  @IsDefined({ message: 'response is required' })
  response!: unknown;
}
