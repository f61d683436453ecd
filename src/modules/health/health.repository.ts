import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

/** The database probe's statement. */
@Injectable()
export class HealthRepository {
  /**
   * One round trip. Outside a transaction `rows()` goes straight to the pool: the probe needs no
   * query runner, and it is polled often.
   */
  async ping(em: EntityManager): Promise<void> {
    await rows(em, 'SELECT 1');
  }
}
