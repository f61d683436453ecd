import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Media (issue 19): image sizes (presets made of every uploaded raster image, SPEC 4.2
 * `/admin/api/image-sizes`) and the runs that make them again for stored media (one queued or
 * running at a time: the partial unique index). The media rows themselves are the built-in media
 * collection's (`c_media`, made by the content sync at boot); their variants live in its `sizes`.
 */
export class Media1763722600000 implements MigrationInterface {
  name = 'Media1763722600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE image_sizes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CONSTRAINT image_sizes_name_key UNIQUE,
        width integer CHECK (width > 0),
        height integer CHECK (height > 0),
        fit text NOT NULL DEFAULT 'inside' CHECK (fit IN ('cover', 'contain', 'inside')),
        format text CHECK (format IN ('webp', 'jpeg', 'png', 'avif')),
        quality integer CHECK (quality BETWEEN 1 AND 100),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT image_sizes_box CHECK (width IS NOT NULL OR height IS NOT NULL)
      )`);
    await q.query(`
      CREATE TABLE media_regenerations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
        total integer NOT NULL DEFAULT 0,
        processed integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        cursor uuid,
        error text,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX media_regenerations_one_active ON media_regenerations ((true))
       WHERE status IN ('queued', 'running')`,
    );
    await q.query(`CREATE INDEX media_regenerations_created ON media_regenerations (created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS media_regenerations`);
    await q.query(`DROP TABLE IF EXISTS image_sizes`);
  }
}
