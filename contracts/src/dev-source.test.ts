import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, resolveConfig, type ViteDevServer } from 'vite';

/**
 * During `npm run dev` an edit in contracts/src must reach the page without a manual build: the web's dev server
 * takes the contracts from their source, while the production build keeps bundling contracts/dist (what the
 * server runs). The server side is covered by scripts/dev.mjs (tsc --watch rewrites contracts/dist, tsx watch
 * restarts on it).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const webRoot = path.resolve(here, '../../web');

let server: ViteDevServer;

beforeAll(async () => {
  server = await createServer({
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'silent',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('the web dev server and the contracts', () => {
  it('resolves @strongroom/contracts to contracts/src, not to the compiled copy', async () => {
    const resolved = await server.pluginContainer.resolveId('@strongroom/contracts', path.join(webRoot, 'src/main.tsx'));
    expect(resolved?.id).toBe(path.join(here, 'index.ts'));
  });

  it('serves the web modules with the contracts source, so an edited message shows on the next load', async () => {
    const apiClient = await server.transformRequest('/src/lib/api-client.ts');
    expect(apiClient?.code).toContain(`/@fs${path.join(here, 'index.ts')}`);
    const messages = await server.transformRequest(`/@fs${path.join(here, 'messages.ts')}`);
    expect(messages?.code).toContain('setupTokenInvalid');
  });

  it('leaves the production build on the compiled contracts', async () => {
    const config = await resolveConfig({ configFile: path.join(webRoot, 'vite.config.ts'), logLevel: 'silent' }, 'build');
    expect(config.resolve.alias.map((a) => String(a.find))).not.toContain('@strongroom/contracts');
  });
});
