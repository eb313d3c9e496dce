import { spawn } from 'node:child_process';

/** Runs a command with inherited output, killed after `timeoutMs`. Resolves on exit 0, rejects otherwise. */
export function run(cmd: string, args: string[], opts: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'inherit', 'inherit'], env: opts.env ?? process.env });
    const timer = setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} ended with ${signal ? `signal ${signal}` : `exit code ${code}`}`));
    });
  });
}
