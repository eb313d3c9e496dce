import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

/** Where the dev server sends /_api: npm run dev sets it from PORT. */
const backend = process.env.STRONGROOM_DEV_API ?? 'http://127.0.0.1:3000';

/** Text files of the build worth sending compressed; smaller than 1 KiB they gain nothing. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT, BROTLI_PARAM_SIZE_HINT } = zlib.constants;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // .vite/ (the manifest of `npm run size`) is not served
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every text file of the build, public/
 * files included, once the build is written: the server sends the one the browser accepts (`preCompressed` in
 * server/src/app.ts), so nothing is compressed per request. A compressed copy that would not be smaller is not
 * written (and an older one is removed), so the server sends the file itself.
 */
function precompress(): Plugin {
  let outDir = '';
  let written = false;
  return {
    name: 'strongroom:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      written = true;
    },
    async closeBundle() {
      if (!written) return; // the build failed: nothing to compress
      const jobs: Promise<void>[] = [];
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const source = fs.readFileSync(file);
        const write = (target: string, bytes: Buffer) => {
          if (bytes.length < source.length) fs.writeFileSync(target, bytes);
          else fs.rmSync(target, { force: true });
        };
        if (source.length < MIN_BYTES) {
          fs.rmSync(`${file}.br`, { force: true });
          fs.rmSync(`${file}.gz`, { force: true });
          continue;
        }
        jobs.push(
          brotli(source, {
            params: { [BROTLI_PARAM_QUALITY]: 11, [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT, [BROTLI_PARAM_SIZE_HINT]: source.length },
          }).then((b) => write(`${file}.br`, b)),
          gzip(source, { level: 9 }).then((b) => write(`${file}.gz`, b)),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * The dev server imports @strongroom/contracts from its source (contracts/src), so an edited message or schema
 * reaches the page at once through hot reload, with no build of contracts/dist first. The production build
 * bundles contracts/dist, the same compiled package the server runs.
 */
function contractsFromSource(): Plugin {
  return {
    name: 'strongroom:contracts-source',
    apply: 'serve',
    config: () => ({
      resolve: { alias: { '@strongroom/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)) } },
    }),
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss(), precompress(), contractsFromSource()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The login route must stay light: pages are split per route (see src/app/app-routes.tsx; `npm run size` checks the budget).
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every icon the app uses in one chunk (about 10 KB compressed) rather than one tiny chunk per icon per set of
          // pages: a signed-in page asked for a dozen icon files, one round trip each over HTTP/1.1's six connections.
          groups: [{ name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ }],
        },
      },
      // The contracts package only defines schemas and constants: let unused ones drop out of each chunk.
      // (Better: "sideEffects": false in contracts/package.json; then this can go.)
      treeshake: {
        moduleSideEffects: (id: string) => !/[\\/]contracts[\\/]dist[\\/]/.test(id),
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/_api': { target: backend, changeOrigin: false },
      '/healthz': { target: backend },
      '/readyz': { target: backend },
      '/.well-known': { target: backend },
    },
  },
  preview: { port: 4173 },
});
