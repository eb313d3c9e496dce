// Figures of a mixed-load run: requests and failures by kind, latency percentiles by class, as report tables.
import type { RequestClass, Sample } from './http-user.js';
import { fmt, fmtInt, percentile } from './stats.js';
import type { Table } from './types.js';

const CLASSES: RequestClass[] = ['read', 'write', 'upload', 'download', 'signin', 'admin'];
export const READ_P99_TARGET_MS = 200;

/** A failure: no answer (the connection's error code) or any status outside 2xx. */
export const failed = (s: Sample) => s.status < 200 || s.status >= 300;

export type LoadFigures = {
  requests: number;
  errors: number;
  fiveXx: number;
  byKind: Array<[string, number]>;
  /** An answer body of each kind of failure. */
  example: Map<string, string>;
  classes: Array<{ cls: RequestClass; count: number; p50: number; p95: number; p99: number; max: number }>;
  readP99: number;
};

export function figures(samples: Sample[]): LoadFigures {
  const kinds = new Map<string, number>();
  const example = new Map<string, string>();
  for (const s of samples.filter(failed)) {
    const k = s.status === 0 ? `no answer (${s.error ?? 'error'}) on ${s.name}` : `${s.status} on ${s.name}`;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
    if (s.detail && !example.has(k)) example.set(k, s.detail);
  }
  const classes = CLASSES.map((cls) => {
    const ms = samples.filter((s) => s.cls === cls && !failed(s)).map((s) => s.ms);
    return ms.length
      ? { cls, count: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), max: Math.max(...ms) }
      : { cls, count: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  });
  return {
    requests: samples.length,
    errors: samples.filter(failed).length,
    fiveXx: samples.filter((s) => s.status >= 500).length,
    byKind: [...kinds].sort((a, b) => b[1] - a[1]),
    example,
    classes,
    readP99: classes.find((c) => c.cls === 'read')!.p99,
  };
}

const ms = (n: number) => (Number.isNaN(n) ? '-' : fmt(n, 1));

/** The latency table of one or more labelled runs. */
export function latencyTable(runs: Array<[string, LoadFigures]>, caption: string): Table {
  const rows: Array<Array<string | number>> = [];
  for (const [label, f] of runs)
    for (const c of f.classes.filter((x) => x.count > 0))
      rows.push([label, c.cls, fmtInt(c.count), ms(c.p50), ms(c.p95), ms(c.p99), ms(c.max)]);
  return { caption, columns: ['run', 'class', 'requests (2xx)', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'], rows };
}

/** Failures by kind (status and call, or the connection error), over one or more labelled runs. */
export function errorTable(runs: Array<[string, LoadFigures]>): Table {
  const rows: Array<Array<string | number>> = [];
  for (const [label, f] of runs) {
    if (f.byKind.length === 0) rows.push([label, 'none', 0, '']);
    for (const [kind, n] of f.byKind) rows.push([label, kind, n, (f.example.get(kind) ?? '').replace(/\s+/g, ' ')]);
  }
  return { caption: 'Failed requests by kind', columns: ['run', 'kind', 'count', 'an answer'], rows };
}

export const describeTarget = (f: LoadFigures) =>
  `${fmtInt(f.requests)} requests, ${f.errors} failed (${f.fiveXx} 5xx), reads p99 ${ms(f.readP99)} ms (target <= ${READ_P99_TARGET_MS}: ${
    f.readP99 <= READ_P99_TARGET_MS ? 'met' : 'missed'
  })`;
