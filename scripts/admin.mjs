// npm run admin -- <command>: the admin CLI, from the build (built first when missing or stale).
import { spawnSync } from 'node:child_process';
import { buildIsStale, root } from './build-state.mjs';

if (buildIsStale()) {
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const r = spawnSync(process.execPath, ['server/dist/cli.js', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
