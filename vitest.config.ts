import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const serverProject = (name: string, env: Record<string, string>) => ({
  test: {
    name,
    root: './server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // `*.postgres.test.ts` is about PostgreSQL itself (its server, its connections): not run on PGlite.
    exclude: env.TEST_DB_KIND === 'postgres' ? configDefaults.exclude : [...configDefaults.exclude, '**/*.postgres.test.ts'],
    environment: 'node',
    // An absolute path: the same file whichever directory a tool resolves it from (vitest takes the project's root).
    globalSetup: [fileURLToPath(new URL('./server/test/global-setup.ts', import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks' as const,
    // Files share a worker's modules instead of loading the whole server again for each file: loading it was
    // most of the suites' time. A file that mocks a module starts from fresh modules itself (vi.resetModules).
    isolate: false,
    env,
  },
});

// The server suites run on PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set (CI).
const projects: unknown[] = [
  { test: { name: 'contracts', root: './contracts', include: ['src/**/*.test.ts'], environment: 'node' } },
  serverProject('server-pglite', { TEST_DB_KIND: 'pglite' }),
  './web/vitest.config.ts',
];
if (process.env.TEST_DATABASE_URL) projects.push(serverProject('server-postgres', { TEST_DB_KIND: 'postgres' }));

export default defineConfig({
  test: {
    projects: projects as never,
    maxWorkers: 2,
  },
});
