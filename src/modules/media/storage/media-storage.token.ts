/** The MediaStorage of the service (local or S3), provided by MediaModule. */
export const MEDIA_STORAGE = Symbol('MEDIA_STORAGE');
