// Sums the JS bytes the server sends for /login (the entry and everything the login page imports statically) to a
// browser that accepts brotli, and fails above the budget: the .br file the build wrote beside each chunk (the server
// sends it as it is), or the chunk itself when there is none. Run after `vite build --manifest` (npm run size).
import fs from 'node:fs';
import path from 'node:path';
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
  const br = path.join(dist, `${file}.br`);
  const sent = fs.statSync(fs.existsSync(br) ? br : path.join(dist, file)).size;
  total += sent;
  console.log(`${(sent / 1024).toFixed(1).padStart(7)} KB  ${file}${fs.existsSync(br) ? ' (br)' : ''}`);
}
const kb = total / 1024;
console.log(`/login sends ${kb.toFixed(1)} KB of JS to a browser that accepts brotli (budget ${BUDGET_KB} KB)`);
fs.rmSync(path.join(dist, '.vite'), { recursive: true, force: true });
if (kb >= BUDGET_KB) process.exit(1);
