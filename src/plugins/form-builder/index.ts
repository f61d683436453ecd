import { Module } from '@nestjs/common';
import { definePlugin, type PluginContext } from '../api';
import { FormBuilderController } from './form-builder.controller';
import {
  FORM_BUILDER_CONTEXT,
  FORM_BUILDER_OPTIONS,
  resolveFormBuilderOptions,
  type FormBuilderOptions,
} from './form-builder.options';
import { FORM_BUILDER_MIGRATIONS } from './migrations';

export type { FormBuilderOptions } from './form-builder.options';

/** The Nest module the core mounts at `/admin/api/forms` (SPEC 4.2 note 3). */
@Module({})
export class FormBuilderModule {}

/**
 * Public forms with stored submissions (CONTRACTS 13.2.2): form definitions managed under the
 * plugin's permissions, a public submit route with per-address budgets and a honeypot, the
 * submissions listed and exported as CSV, and an email to `notifyEmail` for each submission.
 */
export function formBuilderPlugin(options: FormBuilderOptions = {}) {
  const opts = resolveFormBuilderOptions(options);
  return definePlugin({
    slug: 'form-builder',
    version: '1.0.0',
    minServiceVersion: '0.1.0',
    mountPath: 'admin/api/forms',
    migrations: FORM_BUILDER_MIGRATIONS,
    module: (ctx: PluginContext) => ({
      module: FormBuilderModule,
      controllers: [FormBuilderController],
      providers: [
        { provide: FORM_BUILDER_CONTEXT, useValue: ctx },
        { provide: FORM_BUILDER_OPTIONS, useValue: opts },
      ],
    }),
  });
}
