// docs/performance.md: a fixed head (how to run, date, machine), then one section per scenario (and variant).
// Sections are fenced by HTML comments so that a run of one scenario keeps the others' last figures.
import fs from 'node:fs';
import type { MachineInfo } from './machine.js';
import type { Scenario, ScenarioResult, Table } from './types.js';

const START = (key: string) => `<!-- bench:${key}:start -->`;
const END = (key: string) => `<!-- bench:${key}:end -->`;

export const sectionKey = (scenario: Scenario, result: ScenarioResult) =>
  result.variant ? `${scenario.name}:${result.variant}` : scenario.name;

/** The sections of an existing report, by key, in file order. */
export function readSections(file: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!fs.existsSync(file)) return out;
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(/<!-- bench:([\w:.-]+):start -->\n[\s\S]*?<!-- bench:\1:end -->/g)) out.set(m[1], m[0]);
  return out;
}

const cell = (v: string | number) => String(typeof v === 'number' ? v.toLocaleString('en-US') : v).replace(/\|/g, '\\|');

function table(t: Table): string {
  const lines = [];
  if (t.caption) lines.push(`${t.caption}:`, '');
  // Right-align the columns whose cells are all numbers (or empty), left-align the rest.
  const numeric = t.columns.map((_, i) => t.rows.every((r) => r[i] === undefined || /^[\d.,\s-]*$/.test(String(r[i]))));
  lines.push(`| ${t.columns.join(' | ')} |`, `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`);
  for (const r of t.rows) lines.push(`| ${r.map(cell).join(' | ')} |`);
  return lines.join('\n');
}

export type RunStats = { seconds: number; loadBefore: number; loadAfter: number };

export function renderSection(s: Scenario, r: ScenarioResult, when: Date, machine: MachineInfo, stats: RunStats): string {
  const key = sectionKey(s, r);
  const title = r.variant ? `${s.title} (${r.variant})` : s.title;
  return [
    START(key),
    `## ${title}`,
    '',
    `\`${r.command ?? `npm run bench -- ${s.name}`}\` · run ${when.toISOString().replace(/\.\d+Z$/, 'Z')} · ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node} · took ${Math.round(stats.seconds)} s · load average (1 min) ${stats.loadBefore.toFixed(2)} before, ${stats.loadAfter.toFixed(2)} after`,
    '',
    s.description,
    '',
    ...r.summary,
    '',
    ...r.tables.flatMap((t) => [table(t), '']),
    ...r.notes,
    END(key),
  ].join('\n');
}

export function writeReport(file: string, opts: { when: Date; machine: MachineInfo; sections: string[]; scenarios: Scenario[] }): void {
  const head = [
    '# Performance',
    '',
    'Figures from `bench/` (written by `npm run bench`; do not edit the sections by hand, they are rewritten).',
    '',
    '## How to run',
    '',
    '```sh',
    'npm run bench                          # every scenario in bench/scenarios/, in order',
    'npm run bench -- session-throughput    # one scenario (names: ' + opts.scenarios.map((s) => s.name).join(', ') + ')',
    'BENCH_DATABASE_URL=postgres://… npm run bench -- session-throughput   # PostgreSQL instead of PGlite (a throw-away database)',
    'BENCH_WEB_BUILD=1 npm run bench -- login-weight                     # measure a fresh web build instead of web/dist',
    '```',
    '',
    'Knobs (bounded): `BENCH_DURATION` (s per load run, default 10), `BENCH_WARMUP` (s, default 2), `BENCH_ROUNDS` (default 3), `BENCH_CONNECTIONS` (default 10).',
    'Upload: `BENCH_UPLOAD_MB` (default 1024), `BENCH_UPLOAD_STATE` (`cold`, the default, or `warm`: the page-cache state each timed run starts from),',
    '`BENCH_UPLOAD_CLIENT` (`http`, the default, or `fetch`), `BENCH_UPLOAD_PROFILE=<dir>` (V8 CPU profile of the server). Matters list: `BENCH_MATTERS` (default 100000).',
    'Load goes to 127.0.0.1 only; every loop is bounded in count and time. Figures are medians over rounds, with a baseline',
    'run in the same process where one exists; no test asserts on timings.',
    'Running one scenario rewrites its own section and keeps the others as they were (each section says when and where it ran).',
    '',
    `## Machine of the last run (${opts.when.toISOString().replace(/\.\d+Z$/, 'Z')})`,
    '',
    `- CPU: ${opts.machine.cores} cores, ${opts.machine.cpuModel} (model name from /proc/cpuinfo)`,
    `- Memory: ${opts.machine.memoryGiB} GiB`,
    `- Node: ${opts.machine.node}`,
    `- OS: ${opts.machine.os}`,
    "- Shared: other sessions' builds, tests and browsers may run on the same 2 cores; each section gives the load average around its run.",
    '',
  ];
  fs.writeFileSync(file, [...head, ...opts.sections.flatMap((s) => [s, ''])].join('\n'));
}
