import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { IdPipe } from '../../common/id.pipe';
import { CreateImageSizeDto, UpdateImageSizeDto } from './dto/image-size.dto';
import { ImageSizesService, SORTABLE } from './image-sizes.service';
import { MediaRegenerationService } from './media-regeneration.service';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { IMAGE_REGENERATION, IMAGE_SIZE } from './media.openapi';

const SizeId = () => Param('id', new IdPipe('image size'));

/** `/admin/api/image-sizes` (SPEC 4.2): the presets uploads are made in, and their regeneration. */
@SvcController('image-sizes')
export class ImageSizesController {
  constructor(
    private readonly sizes: ImageSizesService,
    private readonly regeneration: MediaRegenerationService,
  ) {}

  /** Any signed-in caller (an upload form shows the sizes). */
  @Get()
  @ApiOkResponse({ schema: listOf(IMAGE_SIZE) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  list(@Query() query: Record<string, unknown>) {
    return this.sizes.list(query);
  }

  @Post()
  @RequirePermission('manage-settings')
  @ApiCreatedResponse({ schema: itemAnswer(IMAGE_SIZE) })
  async create(@Body() dto: CreateImageSizeDto) {
    return { message: 'Image size created', item: await this.sizes.create(dto) };
  }

  @Get('regeneration-status')
  @ApiOkResponse({ schema: IMAGE_REGENERATION })
  status() {
    return this.regeneration.status();
  }

  /** 202: the run is queued (a background job); its progress is `GET regeneration-status`. */
  @Post('regenerate')
  @HttpCode(202)
  @RequirePermission('manage-settings')
  @ApiAcceptedResponse({ schema: itemAnswer(IMAGE_REGENERATION) })
  async regenerate(@CurrentAuth() auth: AuthContext) {
    return { message: 'Regeneration of image sizes queued', item: await this.regeneration.start(auth) };
  }

  @Patch(':id')
  @RequirePermission('manage-settings')
  @ApiOkResponse({ schema: itemAnswer(IMAGE_SIZE) })
  async update(@SizeId() id: string, @Body() dto: UpdateImageSizeDto) {
    return { message: 'Image size updated', item: await this.sizes.update(id, dto) };
  }

  @Delete(':id')
  @RequirePermission('manage-settings')
  @ApiOkResponse({ schema: itemAnswer(IMAGE_SIZE) })
  async remove(@SizeId() id: string) {
    return { message: 'Image size deleted', item: await this.sizes.delete(id) };
  }
}
