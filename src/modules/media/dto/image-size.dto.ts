import { applyDecorators } from '@nestjs/common';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { OptionalNotNull, Trim } from '../../../common/dto';
import { IMAGE_FITS, IMAGE_FORMATS, type ImageFit, type ImageFormat } from '../media.types';

/** A size name: part of URLs and storage keys. */
export const IMAGE_SIZE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const NAME_MESSAGE =
  'name must be 1 to 64 lower-case letters, digits, "-" or "_", starting with a letter or digit';
/** The largest width or height a size may ask for. */
export const MAX_IMAGE_SIDE = 10_000;

/**
 * Decorators as if stacked on the property in this order: applied last to first, as TypeScript
 * applies a stack, so the rules (and the document and errors read from them) keep their order.
 */
const stacked = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators.reverse());

/** A size's name, trimmed. */
const SizeName = () => stacked(Trim(), IsString(), Matches(IMAGE_SIZE_NAME, { message: NAME_MESSAGE }));

/** A whole number from 1 to `max`, or null for none. */
const UpTo = (max: number) => stacked(IsOptional(), IsInt(), Min(1), Max(max));

/** Everything of a size but its name: the same rules for create and update (every key optional). */
abstract class ImageSizeSettings {
  @UpTo(MAX_IMAGE_SIDE)
  width?: number | null;

  @UpTo(MAX_IMAGE_SIDE)
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
  @UpTo(100)
  quality?: number | null;
}

export class CreateImageSizeDto extends ImageSizeSettings {
  @SizeName()
  name!: string;
}

/** Any of the keys; `name` may be left out but not cleared (null is refused). */
export class UpdateImageSizeDto extends ImageSizeSettings {
  @OptionalNotNull()
  @SizeName()
  name?: string;
}
