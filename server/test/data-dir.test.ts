import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DataDirUnsafeError, secureDataDir } from '../src/process.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-datadir-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** Every entry under dir (without following links) whose mode lets group or others read, write or enter it. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) found.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return found;
}

function countEntries(dir: string): number {
  let n = 0;
  const walk = (p: string) => {
    n += 1;
    if (fs.lstatSync(p).isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return n;
}

const env = (dataDir: string) => ({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  LOG_LEVEL: 'info',
  DATABASE_URL: '',
  SMTP_URL: '',
  JOB_RUNNER: 'off',
});

describe('the data directory', () => {
  it('is created owner-only by the server: no database file (WAL included) is open to other accounts', async () => {
    const dataDir = path.join(base, 'fresh');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: env(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await vi.waitFor(() => expect(out, 'the server started').toContain('Strongroom first run'), { timeout: 60_000, interval: 100 });
    // While it runs (the WAL and the lock file exist) ...
    expect(countEntries(dataDir)).toBeGreaterThan(50);
    expect(openToOthers(dataDir)).toEqual([]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // ... and after it stopped.
    expect(openToOthers(dataDir)).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('refuses to start on a DATA_DIR that other accounts can write, and says how to fix it', () => {
    const dataDir = path.join(base, 'open');
    fs.mkdirSync(dataDir);
    fs.chmodSync(dataDir, 0o777);
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: env(dataDir),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(78);
    expect(r.stderr).toContain(`DATA_DIR ${dataDir} is not safe`);
    expect(r.stderr).toContain(`chmod -R go-rwx ${dataDir}`);
    // Nothing was created in it.
    expect(fs.readdirSync(dataDir)).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o777);

    const cli = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli.ts',
        'create-org',
        '--name',
        'Acme LLP',
        '--admin-email',
        'ada@acme.test',
        '--admin-name',
        'Ada Admin',
        '--admin-password',
        'correct horse',
      ],
      {
        cwd: serverDir,
        env: env(dataDir),
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(cli.status).toBe(78);
    expect(cli.stderr).toContain(`chmod -R go-rwx ${dataDir}`);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a group-writable directory deeper down, and tightens files that others could read', () => {
    const dataDir = path.join(base, 'old');
    fs.mkdirSync(path.join(dataDir, 'pg', 'data'), { recursive: true, mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'pg', 'data', 'wal'), 'hash', { mode: 0o666 });
    fs.chmodSync(path.join(dataDir, 'pg', 'data', 'wal'), 0o666);
    expect(secureDataDir(dataDir).tightened).toBe(4);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(fs.readFileSync(path.join(dataDir, 'pg', 'data', 'wal'), 'utf8')).toBe('hash');

    fs.chmodSync(path.join(dataDir, 'pg'), 0o770);
    expect(() => secureDataDir(dataDir)).toThrow(DataDirUnsafeError);
    expect(() => secureDataDir(dataDir)).toThrow(`${path.join(dataDir, 'pg')} can be written by other accounts (mode 770)`);
  });
});
