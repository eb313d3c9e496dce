// npm run dev: the API with tsx watch on :3000 and Vite with hot reload on :5173 (proxying /_api).
import { spawn } from 'node:child_process';
import { root } from './build-state.mjs';

const procs = [
  spawn('npm', ['run', 'build', '-w', 'contracts'], { cwd: root, stdio: 'inherit' }),
];
procs[0].on('exit', () => {
  procs.push(spawn('npx', ['tsx', 'watch', 'server/src/main.ts'], { cwd: root, stdio: 'inherit', env: { NODE_ENV: 'development', LOG_LEVEL: 'info', APP_URL: 'http://localhost:5173', ...process.env } }));
  procs.push(spawn('npx', ['vite', '--port', '5173', '--strictPort'], { cwd: `${root}/web`, stdio: 'inherit' }));
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => { for (const p of procs) p.kill(sig); process.exit(0); });
