/**
 * The request body of `POST request` (the OpenAPI document), written from `readRequest` in
 * magic-link.controller.ts, which checks it itself.
 */
import { objectSchema, STRING } from '../api';

export const MAGIC_LINK_REQUEST = objectSchema(
  {
    email: { ...STRING, minLength: 1, maxLength: 320, description: 'The address to send a sign-in link to' },
    next: {
      ...STRING,
      maxLength: 2048,
      description:
        'Where the link leads once signed in: a same-origin path (`/admin/posts`); anything else leads to `/admin`',
    },
  },
  ['next'],
);
