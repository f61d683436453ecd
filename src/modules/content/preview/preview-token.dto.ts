import { IsInt, Max, Min } from 'class-validator';
import { OptionalNotNull } from '../../../common/dto';
import { PREVIEW_MAX_SECONDS } from './preview.service';

/** `POST .../preview-token`: how long the token lasts (1 s to 7 days; default 1 hour). */
export class PreviewTokenDto {
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(PREVIEW_MAX_SECONDS)
  expiresInSeconds?: number;
}
