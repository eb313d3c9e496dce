/**
 * One extraction child process as the app sees it: started, handed one file at a time, killed with SIGKILL when
 * a file runs past the time limit or the process past the memory limit. The JavaScript heap is capped by
 * --max-old-space-size; OCR (WebAssembly) and page rendering (native canvas) memory is outside that heap, so the
 * whole process's resident memory is watched too and the child is killed past twice maxMemoryMb.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ExtractJob, ExtractionLimits, ExtractionResult, FromExtractChild } from './types.js';

/** A child that has not said it is ready within this time is given up on. */
const START_TIMEOUT_MS = 60_000;
const MEMORY_CHECK_MS = 200;
const PAGE_SIZE = 4096;

/**
 * The child's entry. From source (tsx, vitest) it is extract-worker.ts beside this module, loaded through tsx; in
 * the build this module is bundled into dist/main.js (or worker.js, cli.js) and server/build.mjs emits the child
 * beside it as dist/text-extract-worker.js.
 */
function childEntry(): { file: string; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts')) {
    return { file: fileURLToPath(new URL('./extract-worker.ts', import.meta.url)), execArgv: ['--import', import.meta.resolve('tsx')] };
  }
  return { file: fileURLToPath(new URL('./text-extract-worker.js', import.meta.url)), execArgv: [] };
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} second${s === 1 ? '' : 's'}`;
}

function residentBytes(pid: number): number {
  try {
    const statm = fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    return Number(statm[1]) * PAGE_SIZE;
  } catch {
    return 0; // not Linux, or the process is gone: the heap limit and the timeout still apply
  }
}

export class ExtractChild {
  readonly proc: ChildProcess;
  files = 0;
  private stderr = '';
  private exited = false;
  private readonly ready: Promise<boolean>;
  private onExit: (() => void)[] = [];

  constructor(private readonly limits: ExtractionLimits) {
    const entry = childEntry();
    this.proc = fork(entry.file, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${limits.maxMemoryMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.proc.stderr?.setEncoding('utf8');
    this.proc.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4096)));
    const gone = () => {
      this.exited = true;
      for (const f of this.onExit.splice(0)) f();
    };
    this.proc.on('exit', gone);
    this.proc.on('error', gone);
    this.ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), START_TIMEOUT_MS);
      this.onExit.push(() => resolve(false));
      this.proc.once('message', (m: FromExtractChild) => {
        clearTimeout(timer);
        resolve(m.type === 'ready');
      });
    });
    this.unref();
  }

  /** An idle child never keeps the app's process alive. */
  private unref(): void {
    this.proc.unref();
    this.proc.channel?.unref();
  }

  get alive(): boolean {
    return !this.exited;
  }

  kill(): void {
    if (this.exited) return;
    this.proc.ref(); // so that close() can wait for the exit
    this.proc.kill('SIGKILL');
  }

  /** The file's result; on a kill or crash a 'failed' result whose reason says why (the child is then dead). */
  async run(job: ExtractJob): Promise<ExtractionResult> {
    if (!(await this.ready)) {
      this.kill();
      if (this.outOfHeap()) return this.overMemory();
      return { state: 'failed', reason: 'Text extraction could not start.' };
    }
    this.files++;
    this.proc.channel?.ref();
    try {
      return await this.exchange(job);
    } finally {
      this.unref();
    }
  }

  private outOfHeap(): boolean {
    return /heap out of memory|Allocation failed|Reached heap limit/i.test(this.stderr);
  }

  private overMemory(): ExtractionResult {
    return { state: 'failed', reason: `Text extraction needed more than ${this.limits.maxMemoryMb} MB of memory.` };
  }

  private exchange(job: ExtractJob): Promise<ExtractionResult> {
    const { timeoutMs, maxMemoryMb } = this.limits;
    return new Promise<ExtractionResult>((resolve) => {
      let killedFor: 'time' | 'memory' | null = null;
      const timer = setTimeout(() => {
        killedFor = 'time';
        this.kill();
      }, timeoutMs);
      const memory = setInterval(() => {
        if (residentBytes(this.proc.pid ?? 0) > 2 * maxMemoryMb * 1024 * 1024) {
          killedFor = 'memory';
          this.kill();
        }
      }, MEMORY_CHECK_MS);
      memory.unref();
      const done = (result: ExtractionResult) => {
        this.onExit = this.onExit.filter((f) => f !== onExit);
        clearTimeout(timer);
        clearInterval(memory);
        this.proc.off('message', onMessage);
        resolve(result);
      };
      const onMessage = (m: FromExtractChild) => {
        if (m.type === 'result') done(m.result);
      };
      this.proc.on('message', onMessage);
      const onExit = () => {
        if (killedFor === 'time') done({ state: 'failed', reason: `Text extraction took longer than ${seconds(timeoutMs)}.` });
        else if (killedFor === 'memory' || this.outOfHeap()) done(this.overMemory());
        else done({ state: 'failed', reason: 'Text extraction stopped unexpectedly.' });
      };
      this.onExit.push(onExit);
      if (this.exited) return done({ state: 'failed', reason: 'Text extraction stopped unexpectedly.' });
      this.proc.send(job);
    });
  }

  /** Resolves once the process has exited. */
  exitedPromise(): Promise<void> {
    return this.exited ? Promise.resolve() : new Promise((resolve) => this.onExit.push(resolve));
  }
}
