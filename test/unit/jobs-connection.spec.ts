import type { DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { jobsConnectionOptions } from '../../src/jobs/jobs-connection';

/** pg-boss connects with its own pool: the same server, credentials and TLS as the service's DataSource. */
describe('jobsConnectionOptions', () => {
  const tls = { rejectUnauthorized: true, ca: '-----BEGIN CERTIFICATE-----\n...' };

  it('takes a URL, with the 5 s connection timeout', () => {
    expect(jobsConnectionOptions(dataSourceOptions({ url: 'postgres://u:p@db:5432/svc' }))).toEqual({
      connectionString: 'postgres://u:p@db:5432/svc',
      connectionTimeoutMillis: 5000,
    });
  });

  it("takes TLS and other pg settings given in the DataSource's `extra`, not its pool size, name or statement timeout", () => {
    const options = dataSourceOptions({
      type: 'postgres',
      host: 'db.internal',
      port: 6543,
      username: 'svc',
      password: 'secret',
      database: 'svc',
      extra: { ssl: tls, keepAlive: true, max: 40, application_name: 'host', connectionTimeoutMillis: 2000 },
    });
    expect(jobsConnectionOptions(options)).toEqual({
      host: 'db.internal',
      port: 6543,
      user: 'svc',
      password: 'secret',
      database: 'svc',
      ssl: tls,
      keepAlive: true,
      connectionTimeoutMillis: 2000,
    });
  });

  it('takes a top-level `ssl` and `connectTimeoutMS`; `extra` wins, as in TypeORM', () => {
    const options = dataSourceOptions({
      type: 'postgres',
      url: 'postgres://db/svc',
      ssl: true,
      connectTimeoutMS: 3000,
      extra: { ssl: tls },
    });
    expect(jobsConnectionOptions(options)).toEqual({
      connectionString: 'postgres://db/svc',
      ssl: tls,
      connectionTimeoutMillis: 3000,
    });
  });

  it('connects to the primary of a replicated DataSource (jobs write)', () => {
    const options: DataSourceOptions = {
      type: 'postgres',
      replication: {
        master: { host: 'primary', port: 5432, username: 'svc', password: 'pw', database: 'svc', ssl: tls },
        slaves: [{ host: 'replica', port: 5432, username: 'svc', password: 'pw', database: 'svc' }],
      },
    };
    expect(jobsConnectionOptions(options)).toEqual({
      host: 'primary',
      port: 5432,
      user: 'svc',
      password: 'pw',
      database: 'svc',
      ssl: tls,
      connectionTimeoutMillis: 5000,
    });
  });
});
