import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { MAX_IDS_PER_REQUEST, ROLE_LEVEL_MAX, ROLE_LEVEL_MIN, ROLE_SLUG_PATTERN } from '../rbac.constants';
import { LowerCaseIds, OptionalNotNull, Trim } from './validators';

const SLUG_MESSAGE =
  'slug must start with a lower-case letter and hold only a-z, 0-9 and - (at most 63 characters)';
const NAME_MAX = 100;
const DESCRIPTION_MAX = 1000;

/** `POST /roles` (CONTRACTS 4). Without a slug, it is derived from the name. */
export class CreateRoleDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name!: string;

  @OptionalNotNull()
  @Trim()
  @IsString()
  @Matches(ROLE_SLUG_PATTERN, { message: SLUG_MESSAGE })
  slug?: string;

  @OptionalNotNull()
  @IsInt()
  @Min(ROLE_LEVEL_MIN)
  @Max(ROLE_LEVEL_MAX)
  level?: number;

  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @OptionalNotNull()
  @LowerCaseIds()
  @IsArray()
  @ArrayMaxSize(MAX_IDS_PER_REQUEST)
  @IsUUID('all', { each: true })
  permissionIds?: string[];
}

/** `PATCH /roles/{id}`: absent fields are untouched; `description: null` clears it. */
export class UpdateRoleDto {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @OptionalNotNull()
  @Trim()
  @IsString()
  @Matches(ROLE_SLUG_PATTERN, { message: SLUG_MESSAGE })
  slug?: string;

  @OptionalNotNull()
  @IsInt()
  @Min(ROLE_LEVEL_MIN)
  @Max(ROLE_LEVEL_MAX)
  level?: number;

  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
}

/** `POST /roles/{id}/permissions`: `{ permissionId }` or `{ permissionIds }` (both: their union). */
export class AddRolePermissionsDto {
  // Checked when given, or when permissionIds is absent (then it is required).
  @ValidateIf((o: AddRolePermissionsDto) => o.permissionId !== undefined || o.permissionIds === undefined)
  @LowerCaseIds()
  @IsUUID('all', { message: 'permissionId must be a UUID (or send permissionIds)' })
  permissionId?: string;

  @ValidateIf((o: AddRolePermissionsDto) => o.permissionIds !== undefined || o.permissionId === undefined)
  @LowerCaseIds()
  @IsArray()
  @ArrayMaxSize(MAX_IDS_PER_REQUEST)
  @IsUUID('all', { each: true })
  permissionIds?: string[];
}

/** `PATCH /roles/{id}/permissions`: the complete new set (may be empty). */
export class ReplaceRolePermissionsDto {
  @LowerCaseIds()
  @IsArray()
  @ArrayMaxSize(MAX_IDS_PER_REQUEST)
  @IsUUID('all', { each: true })
  permissionIds!: string[];
}

/** `POST /roles/{id}/children`: `childId` will inherit from the role `id`. */
export class AddChildRoleDto {
  @LowerCaseIds()
  @IsUUID('all')
  childId!: string;
}
