import { AccountTokens1763721800000 } from './1763721800000-AccountTokens';
import { ApiKeyRotation1763722800000 } from './1763722800000-ApiKeyRotation';
import { AuditLog1763722900000 } from './1763722900000-AuditLog';
import { ApiKeys1763722000000 } from './1763722000000-ApiKeys';
import { Content1763722100000 } from './1763722100000-Content';
import { ContentPermissionOwner1763722200000 } from './1763722200000-ContentPermissionOwner';
import { CoreSchema1763721600000 } from './1763721600000-CoreSchema';
import { Email1763721700000 } from './1763721700000-Email';
import { GeneralSettings1763722500000 } from './1763722500000-GeneralSettings';
import { MagicLinkTemplate1763722950000 } from './1763722950000-MagicLinkTemplate';
import { Media1763722600000 } from './1763722600000-Media';
import { Plugins1763722300000 } from './1763722300000-Plugins';
import { AccountSteps1763723000000 } from './1763723000000-AccountSteps';
import { Sessions1763722700000 } from './1763722700000-Sessions';
import { UserFields1763721900000 } from './1763721900000-UserFields';
import { EditorialWorkflow1763723100000 } from './1763723100000-EditorialWorkflow';
import { Webhooks1763723200000 } from './1763723200000-Webhooks';
import { WebhookEventSubject1763723300000 } from './1763723300000-WebhookEventSubject';
import { WebhookFanout1763723400000 } from './1763723400000-WebhookFanout';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests run the same set. */
export const MIGRATIONS = [
  CoreSchema1763721600000,
  Email1763721700000,
  AccountTokens1763721800000,
  UserFields1763721900000,
  ApiKeys1763722000000,
  Content1763722100000,
  ContentPermissionOwner1763722200000,
  Plugins1763722300000,
  GeneralSettings1763722500000,
  Media1763722600000,
  Sessions1763722700000,
  ApiKeyRotation1763722800000,
  AuditLog1763722900000,
  MagicLinkTemplate1763722950000,
  AccountSteps1763723000000,
  EditorialWorkflow1763723100000,
  Webhooks1763723200000,
  WebhookEventSubject1763723300000,
  WebhookFanout1763723400000,
];
