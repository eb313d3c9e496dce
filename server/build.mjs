// Bundles the server (and the contracts it imports) into dist/; npm packages stay external.
import { build } from 'esbuild';
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => d !== '@strongroom/contracts');

fs.rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
  // The hash worker thread and the text extraction child process are entries of their own: hash-pool.ts and
  // text-extraction/child.ts start them from beside the bundle (dist/hash-worker.js, dist/text-extract-worker.js).
  entryPoints: {
    main: 'src/main.ts',
    cli: 'src/cli.ts',
    worker: 'src/worker.ts',
    'hash-worker': 'src/platform/storage/hash-worker.ts',
    'text-extract-worker': 'src/platform/text-extraction/extract-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  external: [...external, 'zod'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
console.log('server built to server/dist');
