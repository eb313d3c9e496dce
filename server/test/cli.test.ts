import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/platform/db/database.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('admin CLI', () => {
  it('creates an organization and prints one line of JSON', () => {
    const r = run([
      'create-org',
      '--name',
      'Acme LLP',
      '--admin-email',
      'ada@acme.test',
      '--admin-name',
      'Ada Admin',
      '--admin-password',
      'correct horse',
    ]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/), userId: 1 });
  });

  it('runs a vault verification now and prints its counts as one line of JSON', () => {
    const r = run(['verify-vault']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({ checked: 0, failed: 0, bytes: 0, dueLeft: false });
    expect(run(['verify-vault', '--all']).status).toBe(64);
  });

  it('re-indexes document texts, reading them here with --now, and prints one line of JSON per organization', () => {
    const r = run(['reindex', '--now']);
    expect(r.status).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([{ organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/), total: 0, skipped: false }, { read: 0 }]);
    expect(run(['reindex', '--since', 'yesterday']).status).toBe(64);
    expect(run(['reindex', '--organization', 'acme']).status).toBe(64);
  });

  it('explains bad arguments', () => {
    const r = run(['create-org', '--name', 'A', '--admin-email', 'nope', '--admin-name', 'Ada', '--admin-password', 'short']);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('--name: Firm name is required.');
    expect(r.stderr).toContain('--admin-email: Please enter a valid email address.');
    expect(r.stderr).toContain('--admin-password: Password must be at least 8 characters.');
  });

  it('says the server must be stopped when the data directory is in use', async () => {
    const held = await openPglite(path.join(dataDir, 'pg'));
    try {
      const r = run([
        'create-org',
        '--name',
        'Bee LLP',
        '--admin-email',
        'bee@acme.test',
        '--admin-name',
        'Bo Bee',
        '--admin-password',
        'correct horse',
      ]);
      expect(r.status).toBe(75);
      expect(r.stderr).toContain('stop the server first');
    } finally {
      await held.close();
    }
  });
});
