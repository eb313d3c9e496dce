import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../config.js';
import { failpoint, NO_FAILPOINTS, parseFailpoints, releaseFailpoints, type Failpoints } from './failpoints.js';

function recorder() {
  const lines: string[] = [];
  return { lines, log: { warn: (_obj: object, msg: string) => void lines.push(msg) } };
}

describe('failpoints', () => {
  it('are off unless FAILPOINTS is set: reaching a point logs nothing and does not wait', async () => {
    const { lines, log } = recorder();
    expect(parseFailpoints(undefined)).toBe(NO_FAILPOINTS);
    await failpoint({ config: { failpoints: NO_FAILPOINTS }, log }, 'upload.after-join');
    expect(lines).toEqual([]);
    expect(loadConfig({ DATA_DIR: '/tmp/strongroom-failpoints' }).failpoints.size).toBe(0);
  });

  it('pause, once and after=n decide which hits hold the run', async () => {
    const points = parseFailpoints('vault.transfer.after-file=pause(1,once,after=3); upload.after-join=pause(1)') as Failpoints;
    const { lines, log } = recorder();
    const ctx = { config: { failpoints: points }, log };
    for (let i = 0; i < 5; i++) await failpoint(ctx, 'vault.transfer.after-file');
    expect(lines).toEqual(['failpoint vault.transfer.after-file reached']);
    await failpoint(ctx, 'upload.after-join');
    await failpoint(ctx, 'upload.after-join');
    expect(lines.filter((l) => l.includes('upload.after-join'))).toHaveLength(2);
    // A point that is not configured stays silent.
    await failpoint(ctx, 'archival.after-object-write');
    expect(lines).toHaveLength(3);
  });

  it('a held run goes on when the test releases it, long before its pause would end', async () => {
    const points = parseFailpoints('search.text.before-read=pause(600000)') as Failpoints;
    const { lines, log } = recorder();
    let passed = false;
    const run = failpoint({ config: { failpoints: points }, log }, 'search.text.before-read').then(() => (passed = true));
    await Promise.resolve();
    expect(lines).toEqual(['failpoint search.text.before-read reached']);
    expect(passed).toBe(false);
    releaseFailpoints(points);
    await run;
    expect(passed).toBe(true);
  });

  it('error throws at the point', async () => {
    const { log } = recorder();
    const ctx = { config: { failpoints: parseFailpoints('archival.after-object-write=error') as Failpoints }, log };
    await expect(failpoint(ctx, 'archival.after-object-write')).rejects.toThrow('failpoint archival.after-object-write: stopped here');
  });

  it('refuse an unknown point or a malformed entry at start, naming FAILPOINTS', () => {
    expect(parseFailpoints('upload.nowhere=pause(5)')).toMatch(/unknown failpoint "upload.nowhere"/);
    expect(parseFailpoints('upload.after-join=sleep(5)')).toMatch(/is not <name>=pause/);
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', FAILPOINTS: 'upload.after-join=pause(x)' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', FAILPOINTS: 'nope=pause(1)' })).toThrow(/FAILPOINTS/);
  });
});
