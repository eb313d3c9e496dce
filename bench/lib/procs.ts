// Child processes of the scale-out harness: started detached in their own process group, tracked so that every one
// of them is ended when the bench ends (normally, on an error, or on a signal), and read through /proc (CPU, memory).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export type Proc = {
  name: string;
  child: ChildProcess;
  /** The pid that does the work: the node server under `node scripts/start.mjs`, or the child itself. */
  pid: number;
  /** Output kept for an error message (the last 20 kB). */
  output(): string;
  exited: Promise<number | null>;
};

const live = new Set<ChildProcess>();
const onExit = () => {
  for (const c of live) killGroup(c, 'SIGKILL');
};
process.once('exit', onExit);
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    onExit();
    process.exit(130);
  });

function killGroup(c: ChildProcess, sig: NodeJS.Signals): void {
  if (c.pid === undefined || c.exitCode !== null || c.signalCode !== null) return;
  try {
    process.kill(-c.pid, sig);
  } catch {
    /* already gone */
  }
}

/** Starts a command in a process group of its own; `onLine` sees each line of its standard output. */
export function startProc(
  name: string,
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; onLine?: (line: string) => void },
): Proc {
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  let partial = '';
  const keep = (d: string) => {
    out = (out + d).slice(-20_000);
  };
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    keep(d);
    if (!opts.onLine) return;
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) opts.onLine(l);
  });
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  return { name, child, pid: child.pid!, output: () => out, exited };
}

/** The one child of `pid` (start.mjs spawns the server), waited for up to 30 s. */
export async function childPid(pid: number): Promise<number> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    try {
      const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      if (kids.length) return Number(kids[0]);
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`process ${pid} started no child`);
}

/** SIGTERM to the group, then SIGKILL after `graceMs`. */
export async function stopProc(p: Proc, graceMs = 8000): Promise<void> {
  killGroup(p.child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(p.child, 'SIGKILL'), graceMs);
  await p.exited;
  clearTimeout(timer);
}

/** kill -9 of the working process only (not its wrapper), as a crash would end it. */
export function kill9(p: Proc): void {
  process.kill(p.pid, 'SIGKILL');
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time (user + system, all threads) of a process in milliseconds; 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICK;
  } catch {
    return 0;
  }
}

/** Resident set size of a process in bytes (0 once it is gone). */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Polls `url` until it answers 200, or throws after `timeoutMs` with the process's output. */
export async function waitReady(url: string, p: Proc | undefined, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (p && p.child.exitCode !== null) throw new Error(`${p.name} exited ${p.child.exitCode}:\n${p.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms${p ? `:\n${p.output()}` : ''}`);
}
