import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsInt,
  Max,
  Min,
  IsDateString,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { OptionalNotNull, Trim } from '../../../common/dto';

export class CreateApiKeyDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @IsIn(['read-only', 'full-access', 'role-based'])
  type!: 'read-only' | 'full-access' | 'role-based';

  /** Required for (and only for) role-based keys. */
  @ValidateIf((o: CreateApiKeyDto) => o.type === 'role-based' || o.roleId !== undefined)
  @IsUUID('all', { message: 'roleId must be a role id (required for a role-based key)' })
  roleId?: string;

  @IsOptional()
  @IsDateString({ strict: true }, { message: 'expiresAt must be an ISO 8601 date-time or null' })
  expiresAt?: string | null;

  /** Permission slugs the key is narrowed to (CONTRACTS 14.4); each must be one its type grants. */
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  scopes?: string[];
}

/** `POST /api-keys/{id}/rotate`: how long the replaced value keeps working (0 to 24 h). */
export class RotateApiKeyDto {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(86_400)
  graceSeconds?: number;
}

/** Only name and description can change (SPEC 2.4); anything else is refused by the strict pipe. */
export class UpdateApiKeyDto {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;
}
