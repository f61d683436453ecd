import { Module } from '@nestjs/common';
import { ContentModule } from '../content/content.module';
import { DashboardController } from './dashboard.controller';
import { DashboardRepository } from './dashboard.repository';
import { DashboardService } from './dashboard.service';

/** The admin dashboard's read-only routes: figures, recent entries, activity. */
@Module({
  imports: [ContentModule],
  controllers: [DashboardController],
  providers: [DashboardRepository, DashboardService],
})
export class DashboardModule {}
