import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import {
  PERMISSION_ACTION_MAX_LENGTH,
  PERMISSION_ACTION_PATTERN,
  PERMISSION_RESOURCE_MAX_LENGTH,
  PERMISSION_RESOURCE_PATTERN,
} from '../rbac.constants';
import { OptionalNotNull, Trim } from './validators';

const NAME_MAX = 200;
const DESCRIPTION_MAX = 1000;

/** `POST /permissions` (CONTRACTS 4): the slug is `<action>-<resource>`. */
export class CreatePermissionDto {
  @IsString()
  @MaxLength(PERMISSION_ACTION_MAX_LENGTH)
  @Matches(PERMISSION_ACTION_PATTERN, {
    message: 'action must start with a lower-case letter and hold only a-z and 0-9',
  })
  action!: string;

  @IsString()
  @MaxLength(PERMISSION_RESOURCE_MAX_LENGTH)
  @Matches(PERMISSION_RESOURCE_PATTERN, {
    message: 'resource must start with a lower-case letter and hold only a-z, 0-9 and -',
  })
  resource!: string;

  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
}

/** `PATCH /permissions/{id}`: only the name and the description (the slug is what routes check). */
export class UpdatePermissionDto {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
}
