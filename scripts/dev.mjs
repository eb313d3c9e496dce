// npm run dev: the contracts compiled on every change (tsc --watch), the API with tsx watch on :3000 and Vite with
// hot reload on :5173 (proxying /_api). PORT and WEB_PORT choose other ports.
//
// An edit in contracts/src reaches both without a restart: tsc rewrites contracts/dist, which the server imports
// (tsx watch follows every file the server loads, contracts/dist included, and restarts it); Vite serves
// contracts/src itself in dev (see web/vite.config.ts) and hot-reloads the page.
import { spawn } from 'node:child_process';
import { root } from './build-state.mjs';

const apiPort = process.env.PORT ?? '3000';
const webPort = process.env.WEB_PORT ?? '5173';
const procs = [];

function stopAll(signal) {
  for (const p of procs) if (p.exitCode === null) p.kill(signal);
}

// The server and Vite start once the first compile has written contracts/dist (the server imports it).
const contracts = spawn('npx', ['tsc', '-p', 'contracts', '--watch', '--preserveWatchOutput'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
procs.push(contracts);
let output = '';
let started = false;
contracts.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (started) return;
  output += chunk;
  if (/Watching for file changes/.test(output)) {
    started = true;
    startApps();
  }
});
contracts.on('exit', (code) => {
  if (code !== null && code !== 0) {
    console.error(`Compiling the contracts failed (exit ${code}).`);
    stopAll('SIGTERM');
    process.exit(code);
  }
});

function startApps() {
  procs.push(
    spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/src/main.ts'], {
      cwd: root,
      stdio: 'inherit',
      env: { NODE_ENV: 'development', LOG_LEVEL: 'info', APP_URL: `http://localhost:${webPort}`, ...process.env, PORT: apiPort },
    }),
  );
  procs.push(
    spawn('npx', ['vite', '--port', webPort, '--strictPort'], {
      cwd: `${root}/web`,
      stdio: 'inherit',
      env: { ...process.env, STRONGROOM_DEV_API: `http://127.0.0.1:${apiPort}` },
    }),
  );
}

for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => {
    stopAll(sig);
    process.exit(0);
  });
}
