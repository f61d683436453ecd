/**
 * Answer schemas of the email routes (src/common/api-schema.ts), written from the mappers:
 * `EmailProvider` (email-provider.mapper.ts), `EmailTemplate` and `EmailLayout`
 * (email-template.mapper.ts), `RenderedEmail` (email-render.ts) and `EmailSent` (email.controller.ts).
 */
import {
  BOOLEAN,
  DATE_TIME,
  INTEGER,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';
import { PASSWORD_MASK } from './email.constants';

/** A provider record: the password is never answered, only the mask when one is set. */
export const EMAIL_PROVIDER = namedSchema(
  'EmailProvider',
  objectSchema({
    id: UUID,
    name: STRING,
    type: { type: 'string', enum: ['smtp'] },
    fromEmail: STRING,
    fromName: NULLABLE_STRING,
    config: objectSchema({
      host: STRING,
      port: INTEGER,
      secure: BOOLEAN,
      user: NULLABLE_STRING,
      password: {
        type: ['string', 'null'],
        enum: [PASSWORD_MASK, null],
        description: 'The mask when a password is set, else null; never the password',
      },
    }),
    isDefault: BOOLEAN,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);

export const EMAIL_TEMPLATE = namedSchema(
  'EmailTemplate',
  objectSchema({
    id: UUID,
    slug: STRING,
    name: STRING,
    subject: STRING,
    html: STRING,
    text: NULLABLE_STRING,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);

export const EMAIL_LAYOUT = namedSchema('EmailLayout', objectSchema({ header: STRING, footer: STRING }));

/** A template rendered with its variables and the layout (`POST /email-templates/{id}/preview`). */
export const RENDERED_EMAIL = namedSchema(
  'RenderedEmail',
  objectSchema({ subject: STRING, html: STRING, text: STRING }),
);

/** `POST /email/send` and `/email/send-with-template`: null `messageId` without a provider. */
export const EMAIL_SENT = namedSchema(
  'EmailSent',
  objectSchema({ message: STRING, messageId: NULLABLE_STRING }),
);
