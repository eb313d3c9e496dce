import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-main-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the server process', () => {
  it('prints the first-run setup token, serves, and shuts down cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '', JOB_RUNNER: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const url = await vi.waitFor(
      () => {
        expect(out, 'the server started').toContain('Strongroom first run');
        const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
        if (!listening) throw new Error(`no address in the server output:\n${out}`);
        return listening;
      },
      { timeout: 60_000, interval: 100 },
    );
    expect(out).toMatch(/open http:\/\/localhost:0\/setup with the setup token\n\s+[A-Za-z0-9_-]{40,}/);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // Every line the server logs is JSON (pino), apart from the first-run banner for the operator.
    const logLines = out.split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const l of logLines) expect(() => JSON.parse(l)).not.toThrow();
    // The token is in the banner only, never in a JSON log line that a log collector keeps.
    const token = /with the setup token\n\s+([A-Za-z0-9_-]{40,})/.exec(out)![1]!;
    expect(logLines.filter((l) => l.includes(token))).toEqual([]);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('shutting down');
    // The embedded database's lock is released: the next process may open the data directory.
    expect(fs.existsSync(path.join(dataDir, 'pg', 'strongroom.lock'))).toBe(false);
  });
});
