// Login page weight: the JavaScript bytes that the server sends for /login, as a browser asks for them
// (Accept-Encoding: br, gzip), measured against the real server serving the built web app: the files headless
// Chromium loads, each fetched again over HTTP to count the bytes on the wire, cross-checked with the browser's own
// transfer sizes and with the static import graph of the build.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { kb } from '../lib/stats.js';
import { startStrongroom } from '../lib/strongroom.js';
import { browserScenarioSetup, CHROMIUM, staleSource } from '../lib/web-dist.js';
import type { Scenario } from '../lib/types.js';

const BUDGET_KB = 170;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What one GET sends: the body bytes as they travel (compressed or not) and their Content-Encoding. */
type Sent = { status: number; bytes: number; encoding: string; vary: string };

/** GET over plain HTTP, counting the body bytes as received: no decompression on the way. */
function getRaw(url: string, acceptEncoding: string | undefined): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}, timeout: 30_000 }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          encoding: String(res.headers['content-encoding'] ?? 'identity'),
          vary: String(res.headers.vary ?? ''),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

/** The Accept-Encoding the budget is measured with: what every current browser sends (and more). */
const BROWSER_ACCEPT_ENCODING = 'br, gzip';

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
  description: `The JavaScript bytes the server sends for \`/login\` (every file the page loads, fetched with \`Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}\` and counted as sent, compressed), added up; budget ${BUDGET_KB} KB (1 KB = 1024 bytes).`,
  async run(ctx) {
    const dist = await browserScenarioSetup(ctx);
    try {
      const builtAt = fs.statSync(path.join(dist.dir, 'index.html')).mtime;
      const stale = staleSource(ctx.root, dist.dir);

      const graph = staticGraph(dist.dir);
      const precompressed = fs.readdirSync(path.join(dist.dir, 'assets')).filter((f) => f.endsWith('.br')).length;
      /** Per file the browser loaded: its decoded bytes, and the body bytes and encoding of the browser's own download. */
      const loaded = new Map<string, { body: Buffer; browserBytes: number; browserEncoding: string }>();
      const sent = new Map<string, { asBrowser: Sent; identity: Sent }>();
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
          page.on('requestfinished', (req) => {
            const u = new URL(req.url());
            if (u.origin !== sr.url || !u.pathname.endsWith('.js')) return;
            bodies.push(
              (async () => {
                const res = await req.response();
                if (!res || res.status() !== 200) return void failures.push(`${u.pathname}: ${res?.status() ?? 'no answer'}`);
                const [body, sizes, headers] = await Promise.all([res.body(), req.sizes(), res.allHeaders()]);
                loaded.set(u.pathname, {
                  body,
                  browserBytes: sizes.responseBodySize,
                  browserEncoding: headers['content-encoding'] ?? 'identity',
                });
              })(),
            );
          });
          await page.goto(`${sr.url}/login`, { waitUntil: 'networkidle', timeout: 60_000 });
          passwordField = await page
            .locator('input[type="password"]')
            .first()
            .waitFor({ state: 'visible', timeout: 15_000 })
            .then(
              () => true,
              () => false,
            );
          await page.waitForLoadState('networkidle', { timeout: 30_000 });
          await Promise.all(bodies);
          if (failures.length) throw new Error(`JavaScript the page asked for did not load: ${failures.join(', ')}`);
          finalUrl = new URL(page.url()).pathname;
          await context.close();
        } finally {
          await browser.close();
        }
        // The same files again over plain HTTP: as a browser asks for them, and without Accept-Encoding.
        for (const file of loaded.keys()) {
          const [asBrowser, identity] = await Promise.all([
            getRaw(`${sr.url}${file}`, BROWSER_ACCEPT_ENCODING),
            getRaw(`${sr.url}${file}`, undefined),
          ]);
          if (asBrowser.status !== 200 || identity.status !== 200)
            throw new Error(`${file} answered ${asBrowser.status} / ${identity.status} over HTTP`);
          sent.set(file, { asBrowser, identity });
        }
      } finally {
        await sr.close();
      }
      if (loaded.size === 0) throw new Error('the browser loaded no JavaScript from /login');

      const rows = [...loaded].map(([file, l]) => {
        const s = sent.get(file)!;
        return {
          file,
          raw: l.body.length,
          sent: s.asBrowser.bytes,
          encoding: s.asBrowser.encoding,
          vary: s.asBrowser.vary,
          identity: s.identity.bytes,
          browser: l.browserBytes,
          browserEncoding: l.browserEncoding,
          how: graph.get(file) ?? ('lazy (dynamic import)' as How),
        };
      });
      const rank: Record<How, number> = {
        'classic script': 0,
        'entry script': 1,
        modulepreload: 2,
        'static import': 3,
        'lazy (dynamic import)': 4,
      };
      rows.sort((a, b) => rank[a.how] - rank[b.how] || b.sent - a.sent);
      const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
      const total = sum((r) => r.sent);
      const totalRaw = sum((r) => r.raw);
      const totalIdentity = sum((r) => r.identity);
      const totalBrowser = sum((r) => r.browser);
      const staticTotal = rows.filter((r) => r.how !== 'lazy (dynamic import)').reduce((n, r) => n + r.sent, 0);
      const lazyTotal = total - staticTotal;
      const encodings = new Map<string, number>();
      for (const r of rows) encodings.set(r.encoding, (encodings.get(r.encoding) ?? 0) + 1);
      const encodingList = [...encodings].map(([e, n]) => `${n} ${e}`).join(', ');
      const browserEncodings = new Map<string, number>();
      for (const r of rows) browserEncodings.set(r.browserEncoding, (browserEncodings.get(r.browserEncoding) ?? 0) + 1);
      const browserEncodingList = [...browserEncodings].map(([e, n]) => `${n} ${e}`).join(', ');
      const missingVary = rows.filter((r) => !/accept-encoding/i.test(r.vary)).map((r) => r.file);
      const notLoaded = [...graph.keys()].filter((f) => !loaded.has(f));
      const verdict = total / 1024 < BUDGET_KB ? 'PASS' : 'OVER';
      const margin = BUDGET_KB - total / 1024;

      return {
        headline: `/login sends ${kb(total)} KB of JS (${encodingList}) in ${rows.length} files: ${verdict} (budget ${BUDGET_KB} KB; ${kb(totalIdentity)} KB without compression)`,
        summary: [
          `- **${kb(total)} KB of JavaScript sent for \`Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}\` (${verdict}, budget ${BUDGET_KB} KB, ${margin >= 0 ? `${kb(margin * 1024)} KB to spare` : `${kb(-margin * 1024)} KB over`})**, ${rows.length} files sent as ${encodingList}; ${kb(totalRaw)} KB once decoded.`,
          `- Without Accept-Encoding the same files are ${kb(totalIdentity)} KB. Headless Chromium itself received ${kb(totalBrowser)} KB of response bodies for them (${browserEncodingList}).`,
          `- Of the bytes sent, ${kb(staticTotal)} KB is the static graph of index.html (scripts, modulepreloads and their static imports) and ${kb(lazyTotal)} KB is loaded lazily by the router for the login page.`,
          `- The browser ended on \`${finalUrl}\`; password field ${passwordField ? 'shown' : '**not found**'}.` +
            (notLoaded.length
              ? ` Files in the static graph the browser did not load: ${notLoaded.map((f) => `\`${f}\``).join(', ')}.`
              : '') +
            (missingVary.length ? ` **Answers without \`Vary: Accept-Encoding\`**: ${missingVary.map((f) => `\`${f}\``).join(', ')}.` : ''),
        ],
        tables: [
          {
            caption: 'Every JavaScript file of the page load (bytes of the body as sent)',
            columns: [
              'file',
              'how it is loaded',
              'bytes decoded',
              `sent for "${BROWSER_ACCEPT_ENCODING}"`,
              'encoding',
              'sent without Accept-Encoding',
              'Chromium received',
            ],
            rows: [
              ...rows.map((r) => [`\`${r.file}\``, r.how, r.raw, r.sent, r.encoding, r.identity, r.browser]),
              ['**total**', '', totalRaw, total, '', totalIdentity, totalBrowser],
            ],
          },
        ],
        notes: [
          `- Measured against the real app (\`buildApp\`, PGlite in memory, one organization so that the page is the normal sign-in page): headless Chromium (${CHROMIUM}, playwright-core) loads \`/login\` until the network is idle and the password field shows, recording every \`.js\` it fetched and its own response body size (\`request.sizes()\`); then each of those files is fetched again with \`node:http\` (no decompression) with \`Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}\` and without, and the body bytes received are added up. The budget is checked on the first.`,
          `- The server sends the \`.br\` or \`.gz\` file the web build wrote beside each JavaScript file (\`preCompressed\`), or the file itself when there is none (files under 1 KiB). Build measured: ${dist.origin}, built ${builtAt.toISOString()}, with ${precompressed} brotli files in assets/.` +
            (precompressed === 0
              ? ' **The build has no compressed files** (made before the web build wrote them): rebuild it (`npm run build -w web`) or run with BENCH_WEB_BUILD=1.'
              : '') +
            (stale
              ? ` **The build is older than its sources** (\`${path.relative(ctx.root, stale.file)}\` changed ${stale.mtime.toISOString()}): run with BENCH_WEB_BUILD=1 for a fresh build.`
              : ''),
          '- CSS and fonts are not counted. `npm run size -w web` checks the same budget from the Vite manifest (index.html and the login page chunk with their static imports), on the brotli files the server sends; it leaves out `/theme-init.js`, a plain script outside the manifest.',
        ],
      };
    } finally {
      dist.cleanup();
    }
  },
};
