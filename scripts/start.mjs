// npm start: builds when the build is missing or stale, then serves the production build on one port.
// npm run worker: the same, for the background worker (server/dist/worker.js; needs DATABASE_URL).
import { spawnSync, spawn } from 'node:child_process';
import { buildIsStale, root } from './build-state.mjs';

if (buildIsStale()) {
  console.log('Building Strongroom (first start or sources changed)...');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const entry = process.argv[2] === 'worker' ? 'server/dist/worker.js' : 'server/dist/main.js';
// The heap may grow by 30% over what the last full collection kept before the next one runs. V8's own choice (up
// to four times) let a busy server's memory climb by hundreds of MiB of garbage between collections; this keeps
// it within a bound an operator can size a machine by, for a little more collecting. Flags and reasons in
// docs/operations.md ("Memory").
const V8_FLAGS = ['--heap-growing-percent=30'];
const child = spawn(process.execPath, [...V8_FLAGS, '--enable-source-maps', entry], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
