import type { ImageSizeRow } from './image-sizes.repository';
import type { ImageSizeRecord } from './media.types';

export function toImageSizeRecord(row: ImageSizeRow): ImageSizeRecord {
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    fit: row.fit,
    format: row.format,
    quality: row.quality,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
