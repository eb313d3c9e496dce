import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

const backend = 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The login route must stay light: pages are split per route (see src/app/app-routes.tsx; `npm run size` checks the budget).
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
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
    },
  },
  preview: { port: 4173 },
});
