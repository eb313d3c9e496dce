// node scripts/run-parallel.mjs SCRIPT... : runs the named npm scripts at the same time, each line of their
// output prefixed with the script's name, and fails when any of them fails. The unit suites keep both cores
// busy only part of the time (process starts, waits for servers) and the browser suite mostly waits on its one
// browser, so running them side by side finishes far sooner than one after the other.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs SCRIPT...');
  process.exit(2);
}

const width = Math.max(...scripts.map((s) => s.length));
const children = new Set();
const started = Date.now();

function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    children.add(child);
    const prefix = `[${script.padEnd(width)}] `;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(prefix + line + '\n');
      });
      stream.on('end', () => {
        if (rest) process.stdout.write(prefix + rest + '\n');
      });
    }
    child.on('close', (code, signal) => {
      children.delete(child);
      const minutes = ((Date.now() - started) / 60_000).toFixed(1);
      const outcome = code === 0 ? 'passed' : `FAILED (${signal ? `signal ${signal}` : `exit code ${code}`})`;
      process.stdout.write(`${prefix}${outcome} after ${minutes} min\n`);
      resolve(code === 0);
    });
  });
}

// A stop of the whole run stops every script.
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(130);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const results = await Promise.all(scripts.map(run));
const failed = scripts.filter((_, i) => !results[i]);
if (failed.length) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`all passed: ${scripts.join(', ')}`);
