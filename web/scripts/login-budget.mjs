// Sums the gzipped JS that /login loads (the entry and everything the login page imports statically) and
// fails above the budget. Run after `vite build --manifest` (npm run size).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 170;
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));

const seen = new Set();
function walk(key) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) walk(dep);
}
walk('index.html');
const login = Object.keys(manifest).find((k) => k.endsWith('pages/login-page.tsx'));
if (!login) throw new Error('login page chunk not found in the manifest');
walk(login);

let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  const gz = zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += gz;
  console.log(`${(gz / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const kb = total / 1024;
console.log(`/login loads ${kb.toFixed(1)} KB of gzipped JS (budget ${BUDGET_KB} KB)`);
fs.rmSync(path.join(dist, '.vite'), { recursive: true, force: true });
if (kb >= BUDGET_KB) process.exit(1);
