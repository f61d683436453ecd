import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'svc:public';
/** Opens a route to visitors. Every other route of the service needs credentials (fail closed). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
