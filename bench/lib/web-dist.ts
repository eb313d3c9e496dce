// The production web build a browser scenario measures, served by the real server (`startStrongroom({ webDist })`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from './exec.js';
import type { RunContext } from './types.js';

export type WebDist = { dir: string; origin: string; cleanup(): void };

/** The web build to measure: BENCH_WEB_DIST, a fresh build in a temp folder (BENCH_WEB_BUILD=1), or web/dist (built when missing). */
async function webDist(ctx: RunContext): Promise<WebDist> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const buildContracts = () => run(npm, ['run', 'build', '-w', 'contracts'], { cwd: ctx.root, timeoutMs: 180_000 });
  if (process.env.BENCH_WEB_DIST) return { dir: path.resolve(process.env.BENCH_WEB_DIST), origin: 'BENCH_WEB_DIST', cleanup() {} };
  if (process.env.BENCH_WEB_BUILD === '1') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-bench-web-'));
    ctx.log(`building the web app into ${dir}...`);
    await buildContracts();
    await run(npm, ['run', 'build', '-w', 'web', '--', '--outDir', dir, '--emptyOutDir'], { cwd: ctx.root, timeoutMs: 300_000 });
    return { dir, origin: 'a fresh build (BENCH_WEB_BUILD=1)', cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const dir = path.join(ctx.root, 'web', 'dist');
  let origin = 'web/dist as found';
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    ctx.log('web/dist is missing: building contracts and web...');
    await buildContracts();
    await run(npm, ['run', 'build', '-w', 'web'], { cwd: ctx.root, timeoutMs: 300_000 });
    origin = 'web/dist, built by this run';
  }
  // Measure a copy: web/dist may be rebuilt (and emptied) by someone else while the browser loads it.
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-bench-web-'));
  for (let attempt = 1; ; attempt++) {
    fs.rmSync(copy, { recursive: true, force: true });
    try {
      fs.cpSync(dir, copy, { recursive: true, preserveTimestamps: true });
      if (completeBuild(copy)) break;
    } catch {
      /* caught mid-rebuild */
    }
    if (attempt === 5) throw new Error('web/dist kept changing (or misses files its index.html names); try again later');
    ctx.log('web/dist is being rebuilt; trying again in 5 s...');
    await new Promise((r) => setTimeout(r, 5000));
  }
  return { dir: copy, origin, cleanup: () => fs.rmSync(copy, { recursive: true, force: true }) };
}

/** index.html is there and every script and preload it names exists. */
function completeBuild(dist: string): boolean {
  if (!fs.existsSync(path.join(dist, 'index.html'))) return false;
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/\b(?:src|href)="\/([^"]+)"/g)].every((m) => fs.existsSync(path.join(dist, m[1])));
}

/** The newest modification time under a folder (to tell whether a build predates its sources). */
function newestMtime(dir: string): { file: string; mtime: Date } | null {
  let best: { file: string; mtime: Date } | null = null;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const m = fs.statSync(p).mtime;
        if (!best || m > best.mtime) best = { file: p, mtime: m };
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return best;
}

/** The sources of web/src changed after the build was made: the figures would describe older code. */
export function staleSource(root: string, dist: string): { file: string; mtime: Date } | null {
  const builtAt = fs.statSync(path.join(dist, 'index.html')).mtime;
  const newestSrc = newestMtime(path.join(root, 'web', 'src'));
  return newestSrc && newestSrc.mtime > builtAt ? newestSrc : null;
}

/** Debian's Chromium, or BENCH_CHROMIUM. */
export const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

/**
 * What a browser scenario needs before it starts: the contracts built (the server imports them), Chromium
 * installed, and the production web build (see webDist).
 */
export async function browserScenarioSetup(ctx: RunContext): Promise<WebDist> {
  if (!fs.existsSync(path.join(ctx.root, 'contracts', 'dist', 'index.js'))) {
    ctx.log('contracts/dist is missing: building contracts...');
    await run('npm', ['run', 'build', '-w', 'contracts'], { cwd: ctx.root, timeoutMs: 180_000 });
  }
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} not found: apt-get update && apt-get install -y chromium (or set BENCH_CHROMIUM)`);
  return webDist(ctx);
}
