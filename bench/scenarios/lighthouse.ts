// Lighthouse on the pages people open first, against the real server serving the production web build: the sign-in
// page, the dashboard, the matters list and one matter's workspace, each as a phone (Lighthouse's default, mobile)
// and as a laptop (its desktop preset), with the scores and the audits that cost points.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MatterResponse, NodeResponse } from '@strongroom/contracts';
import { api, passMfaWall } from '../lib/api-client.js';
import { CATEGORIES, runLighthouse, startChromium, type FormFactor, type LighthouseFigures } from '../lib/lighthouse-run.js';
import { envInt, fmt, median } from '../lib/stats.js';
import { startStrongroom, type Strongroom } from '../lib/strongroom.js';
import type { Scenario } from '../lib/types.js';
import { browserScenarioSetup, CHROMIUM, staleSource } from '../lib/web-dist.js';

const FORM_FACTORS: FormFactor[] = ['mobile', 'desktop'];
const TARGET = { performance: { mobile: 95, desktop: 100 }, accessibility: 100, 'best-practices': 100 };

type Page = { label: string; path: string; signedIn: boolean; slug: string };

/**
 * The firm the signed-in pages show: a few matters, and in the first one folders with files in them and at the root
 * (file rows written as uploads leave them, without the bytes: the pages show names, sizes and dates only).
 */
async function seedMatters(sr: Strongroom): Promise<string> {
  await passMfaWall(sr);
  const names = [
    ['Harbour lease renewal', 'Harbour Holdings'],
    ['Merger of Estate Partners', 'Estate Partners plc'],
    ['Patent dispute, pumps', 'Supply Co'],
    ['Pension scheme review', 'Charter Trustees'],
    ['Probate of J. Smith', 'Smith family'],
    ['Tenancy claim, unit 4', 'Licence Retail Ltd'],
  ];
  const matterIds: string[] = [];
  for (const [matterName, clientName] of names) {
    const { matter } = await api<MatterResponse>(sr, 'POST', '/_api/matters/create', {
      matterName,
      clientName,
      description: `${matterName} for ${clientName}.`,
      responsibleAttorney: 'Jane Counsel',
    });
    matterIds.push(matter.id);
  }
  const matterId = matterIds[0]!;
  const folders: Array<string | null> = [null];
  for (const folderName of ['Correspondence', 'Contracts', 'Court filings', 'Evidence']) {
    const { node } = await api<NodeResponse>(sr, 'POST', '/_api/nodes/create', { matterId, folderName });
    folders.push(node.id);
  }
  const db = sr.built.ctx.db;
  const { organizationId, userId } = sr.admin;
  for (let i = 0; i < 24; i++) {
    const parentId = folders[i % folders.length]!;
    const storagePath = `org/${organizationId}/matters/${matterId}/bench-${i}`;
    const sha256Hash = i.toString(16).padStart(64, '0');
    const fileSize = 20_000 + i * 7_919;
    const node = await db
      .insertInto('nodes')
      .values({
        organizationId,
        matterId,
        parentId,
        name: `${['Letter', 'Agreement', 'Witness statement', 'Invoice'][i % 4]} ${String(i + 1).padStart(2, '0')}.pdf`,
        nodeType: 'file',
        fileSize,
        mimeType: 'application/pdf',
        sha256Hash,
        storagePath,
        uploadId: null,
        uploadStatus: 'completed',
        uploadProgress: 100,
        createdBy: userId,
        currentVersion: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('nodeVersions')
      .values({
        organizationId,
        matterId,
        nodeId: node.id,
        versionNumber: 1,
        fileSize,
        mimeType: 'application/pdf',
        sha256Hash,
        storagePath,
        createdBy: userId,
        restoredFromVersion: null,
      })
      .execute();
  }
  return matterId;
}

type Row = { page: Page; formFactor: FormFactor; runs: LighthouseFigures[] };

function meets(r: Row, m: ReturnType<typeof medians>): boolean {
  return (
    m.performance >= TARGET.performance[r.formFactor] &&
    m.accessibility >= TARGET.accessibility &&
    m['best-practices'] >= TARGET['best-practices']
  );
}

function medians(runs: LighthouseFigures[]) {
  const med = (f: (r: LighthouseFigures) => number) => median(runs.map(f));
  return {
    performance: med((r) => r.scores.performance),
    accessibility: med((r) => r.scores.accessibility),
    'best-practices': med((r) => r.scores['best-practices']),
    lcpMs: med((r) => r.lcpMs),
    tbtMs: med((r) => r.tbtMs),
    cls: med((r) => r.cls),
    fcpMs: med((r) => r.fcpMs),
  };
}

/** The audits that cost a category points in any run, with how many runs they failed in when not all. */
function failingList(runs: LighthouseFigures[]): string {
  const parts: string[] = [];
  for (const c of CATEGORIES) {
    const counts = new Map<string, number>();
    for (const r of runs) for (const id of r.failing[c]) counts.set(id, (counts.get(id) ?? 0) + 1);
    if (!counts.size) continue;
    const ids = [...counts].map(([id, n]) => (n === runs.length ? `\`${id}\`` : `\`${id}\` (${n}/${runs.length})`));
    parts.push(`${c}: ${ids.join(', ')}`);
  }
  return parts.join('; ') || '';
}

export const scenario: Scenario = {
  name: 'lighthouse',
  title: 'Lighthouse scores of the main pages',
  order: 21,
  description:
    'Lighthouse 12 (simulated throttling, its default) on `/login`, the dashboard `/`, `/matters` and one matter’s workspace, ' +
    'against the real server serving the production web build, as mobile (the default settings) and desktop (its desktop preset). ' +
    `Targets: performance ≥ ${TARGET.performance.mobile} mobile and ${TARGET.performance.desktop} desktop, accessibility and best practices 100. ` +
    'Figures are medians of BENCH_LIGHTHOUSE_RUNS runs (default 3).',
  async run(ctx) {
    const runs = envInt('BENCH_LIGHTHOUSE_RUNS', 3, 1, 15);
    const keepDir = process.env.BENCH_LIGHTHOUSE_KEEP ? path.resolve(process.env.BENCH_LIGHTHOUSE_KEEP) : undefined;
    const dist = await browserScenarioSetup(ctx);
    const loads: number[] = [os.loadavg()[0]];
    const rows: Row[] = [];
    try {
      const builtAt = fs.statSync(path.join(dist.dir, 'index.html')).mtime;
      const stale = staleSource(ctx.root, dist.dir);
      const sr = await startStrongroom({ webDist: dist.dir });
      try {
        const matterId = await seedMatters(sr);
        const pages: Page[] = [
          { label: '/login', path: '/login', signedIn: false, slug: 'login' },
          { label: '/ (dashboard)', path: '/', signedIn: true, slug: 'dashboard' },
          { label: '/matters', path: '/matters', signedIn: true, slug: 'matters' },
          { label: '/matters/:id (workspace)', path: `/matters/${matterId}`, signedIn: true, slug: 'workspace' },
        ];
        for (const page of pages) for (const formFactor of FORM_FACTORS) rows.push({ page, formFactor, runs: [] });
        const chrome = await startChromium(CHROMIUM);
        try {
          // Round by round over every page, so that a burst of other work on the machine spreads over the pages.
          for (let round = 1; round <= runs; round++) {
            for (const row of rows) {
              const figures = await runLighthouse({
                port: chrome.port,
                url: sr.url + row.page.path,
                formFactor: row.formFactor,
                cookie: row.page.signedIn ? sr.sessionCookie : undefined,
                keepAs: keepDir && path.join(keepDir, `${row.page.slug}-${row.formFactor}-${round}.json`),
              });
              if (figures.finalPath !== row.page.path)
                throw new Error(`${row.page.path} ended on ${figures.finalPath}: the page measured is not the one asked for`);
              row.runs.push(figures);
              ctx.log(
                `round ${round}/${runs} ${row.page.label} ${row.formFactor}: ` +
                  `${CATEGORIES.map((c) => figures.scores[c]).join(' / ')}, LCP ${fmt(figures.lcpMs / 1000, 2)} s, load ${os.loadavg()[0].toFixed(2)}`,
              );
            }
            loads.push(os.loadavg()[0]);
          }
        } finally {
          chrome.kill();
        }
      } finally {
        await sr.close();
      }

      const table = rows.map((r) => {
        const m = medians(r.runs);
        return {
          r,
          m,
          ok: meets(r, m),
          cells: [
            r.page.label,
            r.formFactor,
            m.performance,
            r.runs.map((x) => x.scores.performance).join(', '),
            m.accessibility,
            m['best-practices'],
            fmt(m.lcpMs / 1000, 2),
            fmt(m.tbtMs, 0),
            fmt(m.cls, 3),
            fmt(m.fcpMs / 1000, 2),
            meets(r, m) ? 'yes' : '**no**',
            failingList(r.runs),
          ],
        };
      });
      const worst = (ff: FormFactor) => Math.min(...table.filter((t) => t.r.formFactor === ff).map((t) => t.m.performance));
      const worstOf = (c: 'accessibility' | 'best-practices') => Math.min(...table.map((t) => t.m[c]));
      const missed = table.filter((t) => !t.ok).map((t) => `${t.r.page.label} ${t.r.formFactor}`);
      const bench = median(rows.flatMap((r) => r.runs.map((x) => x.benchmarkIndex)));
      const warnings = [...new Set(rows.flatMap((r) => r.runs.flatMap((x) => x.warnings)))];
      const errored = [...new Set(rows.flatMap((r) => r.runs.flatMap((x) => x.errored)))].sort();
      return {
        headline:
          `performance (lowest median) ${worst('mobile')} mobile / ${worst('desktop')} desktop, accessibility ${worstOf('accessibility')}, ` +
          `best practices ${worstOf('best-practices')}: ${missed.length ? `${missed.length} page/form factor pairs below target` : 'every page on target'}`,
        summary: [
          `- **Lowest median performance: ${worst('mobile')} mobile (target ${TARGET.performance.mobile}), ${worst('desktop')} desktop (target ${TARGET.performance.desktop})**; lowest accessibility ${worstOf('accessibility')}, lowest best practices ${worstOf('best-practices')} (targets 100).`,
          missed.length ? `- Below target: ${missed.join(', ')}.` : '- Every page meets every target in both form factors.',
        ],
        tables: [
          {
            caption: `Medians of ${runs} run${runs === 1 ? '' : 's'} per page and form factor (times in seconds, TBT in ms); the audits that cost points in any run`,
            columns: [
              'page',
              'form factor',
              'performance',
              'performance per run',
              'accessibility',
              'best practices',
              'LCP',
              'TBT',
              'CLS',
              'FCP',
              'on target',
              'failing audits',
            ],
            rows: table.map((t) => t.cells),
          },
        ],
        notes: [
          `- Lighthouse ${'12.2.3'} in ${CHROMIUM} (\`--headless=new --no-sandbox --disable-gpu\`, started by chrome-launcher), one browser for every run, the runs taken round by round over the pages. Categories: performance, accessibility, best practices.`,
          '- **Simulated throttling** (Lighthouse’s default): the page loads at full speed on loopback and Lighthouse computes the metrics for a slow 4G phone with a 4× slower CPU (mobile) or a fast connection (desktop) from the network and CPU trace of the load. The CPU part still scales with how busy this machine was: TBT and, less, LCP move with the load.',
          `- Machine load average (1 min): ${loads.map((l) => l.toFixed(2)).join(' → ')} (at the start and after each round) on ${ctx.machine.cores} cores; Lighthouse’s benchmark index (median): ${fmt(bench, 0)}.` +
            (warnings.length ? ` Lighthouse warned: ${warnings.join(' ')}` : ''),
          '- The server runs in the bench’s own Node process, beside Lighthouse’s gathering: the time it takes to answer each file is part of what the simulation starts from, and it grows with the load. A deployment answers sooner (and over HTTP/2 behind a proxy, where the six-connections limit of HTTP/1.1 that the simulation applies to this server does not hold).',
          `- Set-up: the real app (\`buildApp\`, PGlite in memory, temporary DATA_DIR), one organization, its administrator signed in (the session cookie sent by Lighthouse as an extra header on the signed-in pages, none on \`/login\`), six matters, the first with four folders and 24 files. Build measured: ${dist.origin}, built ${builtAt.toISOString()}.` +
            (stale
              ? ` **The build is older than its sources** (\`${path.relative(ctx.root, stale.file)}\` changed ${stale.mtime.toISOString()}): run with BENCH_WEB_BUILD=1 for a fresh build.`
              : ''),
          errored.length
            ? `- Audits Lighthouse could not run (its own error, not the page's; they carry no weight in the scores): ${errored.map((id) => `\`${id}\``).join(', ')}. Lighthouse 12.2.3's trace engine does not read the frame events of this newer Chromium (\`frame_sequence\`), so the diagnostics built on it (render-blocking resources, the LCP element, layout shifts) are missing; the metrics and scores come from Lighthouse's own trace processing and are complete.`
            : '- Every audit ran.',
          '- `BENCH_LIGHTHOUSE_KEEP=<dir>` writes every run’s full result (JSON) there, for the details of a failing audit.',
        ],
      };
    } finally {
      dist.cleanup();
    }
  },
};
