import { Trim } from '../../../common/dto';
import { IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength, ValidateIf } from 'class-validator';

/** `PATCH /me`: own name and image only (not email, roles or status). */
export class UpdateMeDto {
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(2048)
  @IsUrl({ require_tld: false, require_protocol: false }, { message: 'image must be a URL' })
  image?: string | null;
}
