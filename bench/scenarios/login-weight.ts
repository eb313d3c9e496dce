// Login page weight: the gzipped JavaScript that a browser loads for /login, measured in headless Chromium
// against the real server serving the built web app, cross-checked with the static import graph of the build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { run } from '../lib/exec.js';
import { kb } from '../lib/stats.js';
import { startStrongroom } from '../lib/strongroom.js';
import type { RunContext, Scenario } from '../lib/types.js';

const BUDGET_KB = 170;
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The web build to measure: BENCH_WEB_DIST, a fresh build in a temp folder (BENCH_WEB_BUILD=1), or web/dist (built when missing). */
async function webDist(ctx: RunContext): Promise<{ dir: string; origin: string; cleanup(): void }> {
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

type How = 'entry script' | 'classic script' | 'modulepreload' | 'static import' | 'lazy (dynamic import)';

/** index.html's scripts and modulepreloads, then every static `import`/`export ... from` of those chunks, transitively. */
function staticGraph(dist: string): Map<string, How> {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const graph = new Map<string, How>();
  const queue: string[] = [];
  const add = (urlPath: string, how: How) => {
    const p = urlPath.split('?')[0];
    if (!p.endsWith('.js') || graph.has(p)) return;
    graph.set(p, how);
    if (how !== 'classic script') queue.push(p);
  };
  for (const m of html.matchAll(/<script\b([^>]*)>/gi)) {
    const src = /\bsrc="([^"]+)"/i.exec(m[1])?.[1];
    if (src) add(src, /\btype="module"/i.test(m[1]) ? 'entry script' : 'classic script');
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const href = /\bhref="([^"]+)"/i.exec(m[1])?.[1];
    if (href && /\brel="modulepreload"/i.test(m[1])) add(href, 'modulepreload');
  }
  // Static forms only: `import"./a.js"`, `import{x}from"./a.js"`, `export{x}from"./a.js"`. A dynamic
  // `import("./a.js")` has a parenthesis before the quote and does not match.
  const staticImport = /(?:^|[;\s}])(?:import|export)\s*(?:[^"'();]*?from\s*)?["']([^"']+\.js)["']/g;
  while (queue.length) {
    const file = queue.shift()!;
    const abs = path.join(dist, file);
    if (!fs.existsSync(abs)) continue;
    const code = fs.readFileSync(abs, 'utf8');
    for (const m of code.matchAll(staticImport)) add(path.posix.join(path.posix.dirname(file), m[1]), 'static import');
  }
  return graph;
}

export const scenario: Scenario = {
  name: 'login-weight',
  title: 'Login page weight',
  order: 20,
  description: `The JavaScript that \`/login\` loads, each file gzipped at level 9 and added up; budget ${BUDGET_KB} KB (1 KB = 1024 bytes).`,
  async run(ctx) {
    if (!fs.existsSync(path.join(ctx.root, 'contracts', 'dist', 'index.js'))) {
      ctx.log('contracts/dist is missing: building contracts...');
      await run('npm', ['run', 'build', '-w', 'contracts'], { cwd: ctx.root, timeoutMs: 180_000 });
    }
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get update && apt-get install -y chromium (or set BENCH_CHROMIUM)`);
    const dist = await webDist(ctx);
    try {
      const builtAt = fs.statSync(path.join(dist.dir, 'index.html')).mtime;
      const newestSrc = newestMtime(path.join(ctx.root, 'web', 'src'));
      const stale = newestSrc && newestSrc.mtime > builtAt ? newestSrc : null;

      const graph = staticGraph(dist.dir);
      const loaded = new Map<string, Buffer>();
      let finalUrl = '';
      let passwordField = false;
      const sr = await startStrongroom({ webDist: dist.dir });
      try {
        const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
        try {
          const context = await browser.newContext({ serviceWorkers: 'block' });
          const page = await context.newPage();
          const bodies: Promise<void>[] = [];
          const failures: string[] = [];
          page.on('response', (res) => {
            const u = new URL(res.url());
            if (u.origin !== sr.url || !u.pathname.endsWith('.js')) return;
            if (res.status() !== 200) failures.push(`${u.pathname}: ${res.status()}`);
            else bodies.push(res.body().then((b) => void loaded.set(u.pathname, b)));
          });
          await page.goto(`${sr.url}/login`, { waitUntil: 'networkidle', timeout: 60_000 });
          passwordField = await page
            .locator('input[type="password"]')
            .first()
            .waitFor({ state: 'visible', timeout: 15_000 })
            .then(() => true, () => false);
          await page.waitForLoadState('networkidle', { timeout: 30_000 });
          await Promise.all(bodies);
          if (failures.length) throw new Error(`JavaScript the page asked for did not load: ${failures.join(', ')}`);
          finalUrl = new URL(page.url()).pathname;
          await context.close();
        } finally {
          await browser.close();
        }
      } finally {
        await sr.close();
      }
      if (loaded.size === 0) throw new Error('the browser loaded no JavaScript from /login');

      const rows = [...loaded].map(([file, buf]) => {
        const gz = zlib.gzipSync(buf, { level: 9 }).length;
        return { file, raw: buf.length, gz, how: graph.get(file) ?? ('lazy (dynamic import)' as How) };
      });
      const rank: Record<How, number> = { 'classic script': 0, 'entry script': 1, modulepreload: 2, 'static import': 3, 'lazy (dynamic import)': 4 };
      rows.sort((a, b) => rank[a.how] - rank[b.how] || b.gz - a.gz);
      const total = rows.reduce((n, r) => n + r.gz, 0);
      const totalRaw = rows.reduce((n, r) => n + r.raw, 0);
      const staticTotal = rows.filter((r) => r.how !== 'lazy (dynamic import)').reduce((n, r) => n + r.gz, 0);
      const lazyTotal = total - staticTotal;
      const notLoaded = [...graph.keys()].filter((f) => !loaded.has(f));
      const verdict = total / 1024 < BUDGET_KB ? 'PASS' : 'OVER';
      const margin = BUDGET_KB - total / 1024;

      return {
        headline: `/login loads ${kb(total)} KB gzipped JS in ${rows.length} files: ${verdict} (budget ${BUDGET_KB} KB)`,
        summary: [
          `- **${kb(total)} KB gzipped JS (${verdict}, budget ${BUDGET_KB} KB, ${margin >= 0 ? `${kb(margin * 1024)} KB to spare` : `${kb(-margin * 1024)} KB over`})**, ${kb(totalRaw)} KB before gzip, ${rows.length} files.`,
          `- Of that, ${kb(staticTotal)} KB is the static graph of index.html (scripts, modulepreloads and their static imports) and ${kb(lazyTotal)} KB is loaded lazily by the router for the login page.`,
          `- The browser ended on \`${finalUrl}\`; password field ${passwordField ? 'shown' : '**not found**'}.` +
            (notLoaded.length ? ` Files in the static graph the browser did not load: ${notLoaded.map((f) => `\`${f}\``).join(', ')}.` : ''),
        ],
        tables: [
          {
            caption: 'Every JavaScript response of the page load',
            columns: ['file', 'how it is loaded', 'bytes', 'gzip -9 bytes'],
            rows: [...rows.map((r) => [`\`${r.file}\``, r.how, r.raw, r.gz]), ['**total**', '', totalRaw, total]],
          },
        ],
        notes: [
          `- Measured in headless Chromium (${CHROMIUM}, playwright-core) loading \`/login\` from the real app (\`buildApp\`, PGlite in memory, one organization so that the page is the normal sign-in page) until the network was idle and the password field showed; every \`.js\` response body recorded, gzipped with zlib level 9 one by one (as a server would send them) and added up.`,
          `- Build measured: ${dist.origin}, built ${builtAt.toISOString()}.` +
            (stale ? ` **The build is older than its sources** (\`${path.relative(ctx.root, stale.file)}\` changed ${stale.mtime.toISOString()}): run with BENCH_WEB_BUILD=1 for a fresh build.` : ''),
          '- CSS and fonts are not counted. `npm run size -w web` checks the same budget from the Vite manifest (index.html and the login page chunk with their static imports); it leaves out `/theme-init.js`, a plain script outside the manifest, so it counts that file\'s bytes less.',
        ],
      };
    } finally {
      dist.cleanup();
    }
  },
};
