import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { OptionalNotNull, Trim } from '../../../common/dto';
import { SLUG_PATTERN, SLUG_SHAPE } from '../../../fields/names';
import { WEBHOOK_EVENTS } from '../webhooks.types';

const NAME_MAX = 200;
const URL_MAX = 2048;
const DESCRIPTION_MAX = 1000;
const COLLECTIONS_MAX = 200;
export const SUBSCRIBABLE: readonly string[] = [...WEBHOOK_EVENTS, '*'];
const EVENTS_MESSAGE = `each of events must be one of ${SUBSCRIBABLE.join(', ')}`;
const COLLECTION_MESSAGE = `each of collections must be a collection slug: ${SLUG_SHAPE}`;

/** `POST /webhooks`. The URL's scheme and address are checked by the service. */
export class CreateWebhookDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name!: string;

  /** `http:` or `https:`; an address literal in a private range is refused unless allowed. */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(URL_MAX)
  url!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @IsIn(SUBSCRIBABLE, { each: true, message: EVENTS_MESSAGE })
  events!: string[];

  /** null or absent: every collection's `entry.*` events. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(COLLECTIONS_MAX)
  @IsString({ each: true })
  @Matches(SLUG_PATTERN, { each: true, message: COLLECTION_MESSAGE })
  collections?: string[] | null;

  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
}

/** `PATCH /webhooks/{id}`: any field of the create; absent ones keep their value. */
export class UpdateWebhookDto {
  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;

  @OptionalNotNull()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(URL_MAX)
  url?: string;

  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @IsIn(SUBSCRIBABLE, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(COLLECTIONS_MAX)
  @IsString({ each: true })
  @Matches(SLUG_PATTERN, { each: true, message: COLLECTION_MESSAGE })
  collections?: string[] | null;

  /** true on a disabled endpoint: enabled again, its failure count and reason cleared. */
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;
}
