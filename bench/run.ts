// npm run bench [-- NAME...]: runs the scenarios of bench/scenarios/ in order (or the named ones) and writes
// their figures to docs/performance.md, keeping the sections of scenarios not run this time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeMachine, machineInfo } from './lib/machine.js';
import { readSections, renderSection, sectionKey, writeReport } from './lib/report.js';
import type { Scenario } from './lib/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const reportFile = path.join(root, 'docs', 'performance.md');

async function loadScenarios(): Promise<Scenario[]> {
  const dir = path.join(here, 'scenarios');
  const files = fs.readdirSync(dir).filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && !f.endsWith('.d.ts'));
  const list: Scenario[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { scenario?: Scenario };
    if (!mod.scenario) throw new Error(`bench/scenarios/${f} exports no \`scenario\``);
    list.push(mod.scenario);
  }
  return list.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

async function main(): Promise<number> {
  const all = await loadScenarios();
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !all.some((s) => s.name === w));
  if (unknown.length) {
    console.error(`unknown scenario ${unknown.join(', ')}; known: ${all.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const chosen = wanted.length ? all.filter((s) => wanted.includes(s.name)) : all;
  const machine = machineInfo();
  const when = new Date();
  console.log(`Strongroom bench on ${describeMachine(machine)}`);

  const previous = readSections(reportFile);
  const fresh = new Map<string, string>();
  const headlines: string[] = [];
  let failed = 0;
  for (const s of chosen) {
    console.log(`\n== ${s.name}: ${s.title}`);
    const t0 = performance.now();
    const started = new Date();
    const loadBefore = os.loadavg()[0];
    if (loadBefore > machine.cores / 2)
      console.log(`  note: load average ${loadBefore.toFixed(2)} on ${machine.cores} cores: other work is running, figures will be noisy`);
    try {
      const result = await s.run({ root, machine, log: (m) => console.log(`  ${m}`) });
      const seconds = (performance.now() - t0) / 1000;
      fresh.set(sectionKey(s, result), renderSection(s, result, started, machine, { seconds, loadBefore, loadAfter: os.loadavg()[0] }));
      headlines.push(`${s.name}: ${result.headline}`);
      console.log(`  -> ${result.headline}`);
    } catch (err) {
      failed++;
      headlines.push(`${s.name}: FAILED (${(err as Error).message}); its section in docs/performance.md was left as it was`);
      console.error(`  FAILED: ${(err as Error).stack ?? err}`);
    }
  }

  // Section order: scenario order (fresh or kept), then kept sections of scenarios that no longer exist.
  const sections: string[] = [];
  const used = new Set<string>();
  for (const s of all) {
    const keys = [...new Set([...previous.keys(), ...fresh.keys()])].filter((k) => k === s.name || k.startsWith(`${s.name}:`)).sort();
    for (const k of keys) {
      sections.push(fresh.get(k) ?? previous.get(k)!);
      used.add(k);
    }
  }
  for (const [k, text] of previous) if (!used.has(k)) sections.push(text);
  if (fresh.size) {
    fs.mkdirSync(path.dirname(reportFile), { recursive: true });
    writeReport(reportFile, { when, machine, sections, scenarios: all });
    console.log(`\nwrote ${path.relative(root, reportFile)}`);
  }
  console.log(`\n${headlines.join('\n')}`);
  return failed ? 1 : 0;
}

// A last bound on the whole run: whatever hangs (a browser, a child, a server), the process ends by itself.
const LIMIT_MINUTES = 30;
setTimeout(() => {
  console.error(`bench: still running after ${LIMIT_MINUTES} minutes; stopping`);
  process.exit(1);
}, LIMIT_MINUTES * 60_000).unref();

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
