import { Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, OptionalAuth } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { IdPipe } from '../../common/id.pipe';
import { MediaService } from './media.service';

const MediaId = () => Param('id', new IdPipe('media file'));

/**
 * `/admin/api/media/{id}/{filename}` and `/admin/api/media/{id}/{size}/{filename}`: the stored
 * files, under the media collection's `read` rule (checked by the service: visitors reach it when
 * media is public). Browser sessions (the cookie's path is /admin) and Bearer credentials alike.
 */
@SvcController('media')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Get(':id/:filename')
  @OptionalAuth()
  original(
    @MediaId() id: string,
    @Param('filename') filename: string,
    @CurrentAuth() auth: AuthContext | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.media.serve(req, res, auth ?? null, id, null, filename);
  }

  @Get(':id/:size/:filename')
  @OptionalAuth()
  size(
    @MediaId() id: string,
    @Param('size') size: string,
    @Param('filename') filename: string,
    @CurrentAuth() auth: AuthContext | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.media.serve(req, res, auth ?? null, id, size, filename);
  }
}
