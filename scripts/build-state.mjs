// Decides whether the production build is missing or older than its sources.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function newest(dir) {
  let max = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return max;
}

function oldestOutput(files) {
  let min = Infinity;
  for (const f of files) {
    if (!fs.existsSync(f)) return 0;
    min = Math.min(min, fs.statSync(f).mtimeMs);
  }
  return min;
}

export function buildIsStale() {
  const sources = Math.max(
    newest(path.join(root, 'contracts/src')),
    newest(path.join(root, 'server/src')),
    newest(path.join(root, 'web/src')),
    newest(path.join(root, 'web/public')),
    ...['web/index.html', 'web/vite.config.ts', 'server/build.mjs', 'package-lock.json'].map((f) =>
      fs.existsSync(path.join(root, f)) ? fs.statSync(path.join(root, f)).mtimeMs : 0,
    ),
  );
  const outputs = oldestOutput([
    path.join(root, 'contracts/dist/index.js'),
    path.join(root, 'server/dist/main.js'),
    path.join(root, 'web/dist/index.html'),
  ]);
  return outputs < sources;
}

export { root };
