import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { OptionalNotNull, Trim } from '../../../common/dto';
import { IMAGE_FITS, IMAGE_FORMATS, type ImageFit, type ImageFormat } from '../media.types';

/** A size name: part of URLs and storage keys. */
export const IMAGE_SIZE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const NAME_MESSAGE =
  'name must be 1 to 64 lower-case letters, digits, "-" or "_", starting with a letter or digit';
/** The largest width or height a size may ask for. */
export const MAX_IMAGE_SIDE = 10_000;

export class CreateImageSizeDto {
  @Trim()
  @IsString()
  @Matches(IMAGE_SIZE_NAME, { message: NAME_MESSAGE })
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_IMAGE_SIDE)
  width?: number | null;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_IMAGE_SIDE)
  height?: number | null;

  /** Default `inside`: the whole image within the box. */
  @OptionalNotNull()
  @IsIn(IMAGE_FITS)
  fit?: ImageFit;

  /** Default: the source image's format. */
  @IsOptional()
  @IsIn(IMAGE_FORMATS)
  format?: ImageFormat | null;

  /** JPEG, WebP and AVIF only (1-100); default the encoder's. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  quality?: number | null;
}

export class UpdateImageSizeDto {
  @ValidateIf((_o, v) => v !== undefined)
  @Trim()
  @IsString()
  @Matches(IMAGE_SIZE_NAME, { message: NAME_MESSAGE })
  name?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_IMAGE_SIDE)
  width?: number | null;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_IMAGE_SIDE)
  height?: number | null;

  @OptionalNotNull()
  @IsIn(IMAGE_FITS)
  fit?: ImageFit;

  @IsOptional()
  @IsIn(IMAGE_FORMATS)
  format?: ImageFormat | null;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  quality?: number | null;
}
