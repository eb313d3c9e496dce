import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp, startServer } from './process-helpers.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-config-'));
afterAll(async () => {
  await cleanUp();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a bad TRUST_PROXY stops the real server at start', () => {
  it('with a configuration message naming the variable, exit code 78 and no stack trace', async () => {
    const server = startServer({ DATA_DIR: dataDir, PORT: '0', TRUST_PROXY: '0.0.0.0/0' });
    const code = await server.exited;
    const output = server.output();
    expect(code).toBe(78);
    expect(output).toContain('Invalid configuration:');
    expect(output).toContain('TRUST_PROXY: 0.0.0.0/0 would believe the X-Forwarded-For of a large share of the internet');
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('Error:');
    // Nothing was started: no database was made in DATA_DIR.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
