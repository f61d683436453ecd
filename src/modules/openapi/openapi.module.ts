import { Module } from '@nestjs/common';
import { ContentModule } from '../content/content.module';
import { OpenApiController } from './openapi.controller';
import { OpenApiService } from './openapi.service';

/** The OpenAPI 3.1 document of the service and its Swagger UI (issue 21). */
@Module({ imports: [ContentModule], controllers: [OpenApiController], providers: [OpenApiService] })
export class OpenApiModule {}
