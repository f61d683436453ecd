import { Global, Module } from '@nestjs/common';
import { ChangeBus } from './change-bus.service';

/**
 * What instances on one database tell each other: the changes to what they cache (ChangeBus).
 * Global, and the lowest layer, so every module can publish and listen.
 */
@Global()
@Module({
  providers: [ChangeBus],
  exports: [ChangeBus],
})
export class ClusterModule {}
