import { applyDecorators, Get, Param, Req, Res } from '@nestjs/common';
import {
  ApiNotModifiedResponse,
  ApiOkResponse,
  ApiPartialContentResponse,
  ApiRequestedRangeNotSatisfiableResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, OptionalAuth } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { IdPipe } from '../../common/id.pipe';
import { FILE_CONTENT, FILE_HEADERS } from './media.openapi';
import { MediaService } from './media.service';

const MediaId = () => Param('id', new IdPipe('media file'));

/**
 * What serving a file answers (MediaService.serve): the bytes in the type they were stored with,
 * whole or a range, 304 to a matching conditional request, 416 (no body) to a range past the end.
 */
const FileAnswers = () =>
  applyDecorators(
    ApiOkResponse({
      description: 'The file, in its stored type',
      content: FILE_CONTENT,
      headers: FILE_HEADERS,
    }),
    ApiPartialContentResponse({
      description: 'The requested byte range (`Range`), with `Content-Range`',
      content: FILE_CONTENT,
      headers: FILE_HEADERS,
    }),
    ApiNotModifiedResponse({
      description: 'Unchanged (`If-None-Match` / `If-Modified-Since`); no body',
      headers: FILE_HEADERS,
    }),
    ApiRequestedRangeNotSatisfiableResponse({
      description: 'The range is past the end of the file: `Content-Range: bytes */<size>`, no body',
    }),
  );

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
  @FileAnswers()
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
  @FileAnswers()
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
