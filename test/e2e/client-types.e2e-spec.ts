import { execFile } from 'node:child_process';
import { join } from 'node:path';

/**
 * `svc/client`'s types (src/client/api.ts) are committed: this regenerates them from the
 * current OpenAPI document and fails when they differ, naming the command that updates them.
 */
describe('the committed types of svc/client', () => {
  it('are those of the current OpenAPI document', async () => {
    const root = join(__dirname, '..', '..');
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(root, 'scripts', 'generate-client.mjs'), '--check'],
        { cwd: root, timeout: 120_000 },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
    expect(result).toEqual({ code: 0, stderr: '' });
  }, 120_000);
});
