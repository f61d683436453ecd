import { Trim } from '../../../common/dto';
import { IsDefined, IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsStrongPassword, PASSWORD_MAX, PASSWORD_MIN } from '../../../common/password-strength';

/**
 * What IsStrongPassword accepts, for the API document (class-validator's metadata names the rule,
 * not its shape): 8 to 256 characters with a lower-case letter, an upper-case letter and a digit.
 */
const NEW_PASSWORD: ApiPropertyOptions = {
  type: 'string',
  minLength: PASSWORD_MIN,
  maxLength: PASSWORD_MAX,
  pattern: '^(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[0-9])',
  description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters with a lower-case letter, an upper-case letter and a digit`,
};

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
  @ApiProperty({ ...NEW_PASSWORD, required: true })
  password!: string;
}

export class RegisterDto {
  @Trim()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email!: string;

  @IsStrongPassword()
  @ApiProperty({ ...NEW_PASSWORD, required: true })
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
  @ApiProperty({ ...NEW_PASSWORD, required: true })
  password!: string;
}

export class AcceptInviteDto extends TokenDto {
  @IsStrongPassword()
  @ApiProperty({ ...NEW_PASSWORD, required: true })
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
  @ApiProperty({ ...NEW_PASSWORD, required: true })
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
  @ApiProperty({ ...NEW_PASSWORD, required: true })
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
