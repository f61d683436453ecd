import { Module } from '@nestjs/common';
import { SVC_OPTIONS, type SvcOptions } from '../../config/svc-options';
import { JobsModule } from '../../jobs/jobs.module';
import { ContentModule } from '../content/content.module';
import { ImageProcessor } from './image-processor';
import { ImageSizesController } from './image-sizes.controller';
import { ImageSizesRepository } from './image-sizes.repository';
import { ImageSizesService } from './image-sizes.service';
import { MediaController } from './media.controller';
import { MediaRegenerationRepository } from './media-regeneration.repository';
import { MediaRegenerationService } from './media-regeneration.service';
import { MediaRemoval } from './media-removal';
import { MediaRepository } from './media.repository';
import { MediaService } from './media.service';
import { LocalMediaStorage } from './storage/local-storage';
import type { MediaStorage } from './storage/media-storage';
import { MEDIA_STORAGE } from './storage/media-storage.token';
import { S3MediaStorage } from './storage/s3-storage';

/**
 * Media (CONTRACTS 11, SPEC 4.2): uploads into the built-in media collection (through content's
 * MediaHooks), their storage (local disk, or an S3-compatible bucket when `media.s3` is set),
 * serving under `/admin/api/media`, image sizes and their regeneration.
 */
@Module({
  imports: [ContentModule, JobsModule],
  controllers: [MediaController, ImageSizesController],
  providers: [
    {
      provide: MEDIA_STORAGE,
      inject: [SVC_OPTIONS],
      useFactory: (o: SvcOptions): MediaStorage =>
        o.media.s3 ? new S3MediaStorage(o.media.s3) : new LocalMediaStorage(o.media.dir),
    },
    MediaRepository,
    ImageSizesRepository,
    MediaRegenerationRepository,
    ImageProcessor,
    ImageSizesService,
    MediaService,
    MediaRemoval,
    MediaRegenerationService,
  ],
  exports: [MediaService],
})
export class MediaModule {}
