import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export type LoadOptions = { url: string; connections: number; duration: number; headers?: Record<string, string> };

export type LoadResult = {
  duration: number;
  /** autocannon's "Req/Sec" average: the mean of the per-second request counts. */
  requestsAverage: number;
  totalCompleted: number;
  /** Milliseconds (autocannon records whole milliseconds). */
  latency: { p50: number; p90: number; p97_5: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
};

const child = fileURLToPath(new URL('./load-child.mjs', import.meta.url));

export const autocannonVersion: string = createRequire(import.meta.url)('autocannon/package.json').version;

/** One autocannon run in a child process; the child is killed if it outlives the duration by 30 s. */
export function load(opts: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (d: string) => (out += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), (opts.duration + 30) * 1000);
    p.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    p.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`autocannon ended with ${signal ? `signal ${signal}` : `exit code ${code}`}`));
      try {
        resolve(JSON.parse(out) as LoadResult);
      } catch (err) {
        reject(new Error(`autocannon printed no result: ${(err as Error).message}`));
      }
    });
  });
}
