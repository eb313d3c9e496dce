import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { expect, test, type Page } from '@playwright/test';
import { setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';
import { startFirmServer, startServer, type RunningServer } from './support/server.js';

// Matters under legal hold and vaulted matters are read-only, in the browser and at the server. Holds and the
// vault are set in the database directly (the screens for them come with the legal hold and vault work): the
// server is stopped, the flags are written through PGlite, and the same firm starts again on the same data.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-readonly-setup-token-0123456789abcdef';
const ADMIN = { email: 'rhea@ledger.test', name: 'Rhea Records', password: 'readonly passphrase', firm: 'Ledger & Vale' };
const HOLD_REASON = 'Pending litigation: preserve everything';

let root: string;
let dataDir: string;
let env: Record<string, string>;
let server: RunningServer;
let page: Page;
const ids: Record<'held' | 'vaulted' | 'open', string> = { held: '', vaulted: '', open: '' };

/** A JSON call as the signed-in browser makes it (its cookies, same origin). */
async function call(p: Page, url: string, body: object) {
  return p.request.post(url, { data: body, headers: { Origin: server.url } });
}

const detail = () => page.getByRole('main');
const contents = () => detail().getByRole('table');

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-readonly-'));
  dataDir = path.join(root, 'data');
  ({ server, env } = await startFirmServer(dataDir, ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('three matters with a folder each, then one is put under legal hold and one vaulted', async () => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);

  for (const [key, name] of [
    ['held', 'Harbour Lease Litigation'],
    ['vaulted', 'Closed Estate of A. Vale'],
    ['open', 'Open Advisory Work'],
  ] as const) {
    const created = await call(page, '/_api/matters/create', {
      matterName: name,
      clientName: 'Vale Holdings',
      responsibleAttorney: ADMIN.name,
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    ids[key] = (await created.json()).matter.id;
    const folder = await call(page, '/_api/nodes/create', { matterId: ids[key], parentId: null, folderName: 'Pleadings' });
    expect(folder.status(), await folder.text()).toBeLessThan(300);
  }

  // The flags, written while the server is down (PGlite has one owner), then the same firm on the same data.
  await server.stop();
  // Where and how the server keeps it (server/src/platform/db/database.ts): DATA_DIR/pg/data, with its extensions.
  const db = await PGlite.create(path.join(dataDir, 'pg', 'data'), { extensions: { pg_trgm, pgcrypto } });
  await db.query('update matters set legal_hold = true, hold_reason = $1 where id = $2', [HOLD_REASON, ids.held]);
  await db.query("update matters set legal_hold = true, is_vaulted = true, status = 'Vaulted', vaulted_at = now() where id = $1", [
    ids.vaulted,
  ]);
  await db.close();
  server = await startServer(env);
});

test('a held matter: the notice with its reason, no way to change it in the UI, and the server refuses too', async () => {
  // The session lives in the database, so it survived the restart.
  await page.goto(`/matters/${ids.held}`);
  await expect(detail().getByRole('heading', { name: 'Harbour Lease Litigation' })).toBeVisible();
  await expect(detail().getByText('Legal Hold', { exact: true })).toBeVisible();
  await expect(detail().getByRole('status').filter({ hasText: 'Under legal hold' })).toContainText(
    `Actions are disabled due to legal hold: ${HOLD_REASON}`,
  );
  await expect(detail().getByRole('button', { name: 'Upload' })).toBeDisabled();
  await expect(detail().getByRole('button', { name: 'Create folder' })).toBeDisabled();
  await expect(detail().getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();

  // Row menu and right-click menu: opening stays possible, changing does not.
  await contents().getByRole('button', { name: 'Actions for Pleadings' }).click();
  await expect(page.getByRole('menuitem', { name: 'Open' })).toBeEnabled();
  for (const item of ['Rename', 'Move', 'Delete']) await expect(page.getByRole('menuitem', { name: item })).toBeDisabled();
  await page.keyboard.press('Escape');
  await contents()
    .getByRole('row', { name: /Pleadings/ })
    .click({ button: 'right' });
  for (const item of ['Rename', 'Move', 'Delete']) await expect(page.getByRole('menuitem', { name: item })).toBeDisabled();
  await page.keyboard.press('Escape');
  await shotThemes(page, 'matters-legal-hold');

  // What the UI does not offer, the server refuses (a stale tab, a script): 409 with the hold's text.
  const detailRes = await page.request.get(`/_api/matters/detail?matterId=${ids.held}`);
  const folderId = (await detailRes.json()).nodes[0].id;
  const rename = await call(page, '/_api/nodes/rename', { nodeId: folderId, newName: 'Renamed' });
  expect(rename.status()).toBe(409);
  expect((await rename.json()).error).toBe('Actions are disabled due to legal hold');
  const create = await call(page, '/_api/nodes/create', { matterId: ids.held, parentId: null, folderName: 'Sneaky' });
  expect(create.status()).toBe(409);
  await page.reload();
  await expect(contents().getByRole('row')).toHaveCount(2); // header + Pleadings, nothing renamed or added
  await expect(contents().getByText('Pleadings')).toBeVisible();
});

test('a vaulted matter says so (the vault wins over its hold), and an open matter stays editable', async () => {
  await page.goto(`/matters/${ids.vaulted}`);
  await expect(detail().getByRole('heading', { name: 'Closed Estate of A. Vale' })).toBeVisible();
  await expect(detail().getByRole('status').filter({ hasText: 'Vaulted' })).toContainText('Actions are disabled for vaulted matters.');
  await expect(detail().getByRole('button', { name: 'Upload' })).toBeDisabled();
  const removal = await call(page, '/_api/nodes/delete', {
    nodeId: (await (await page.request.get(`/_api/matters/detail?matterId=${ids.vaulted}`)).json()).nodes[0].id,
  });
  expect(removal.status()).toBe(409);
  expect((await removal.json()).error).toBe('Actions are disabled for vaulted matters');
  await shotThemes(page, 'matters-vaulted');

  await page.goto(`/matters/${ids.open}`);
  await expect(detail().getByRole('heading', { name: 'Open Advisory Work' })).toBeVisible();
  await expect(
    detail()
      .getByRole('status')
      .filter({ hasText: /Under legal hold|Vaulted/ }),
  ).toHaveCount(0);
  await expect(detail().getByRole('button', { name: 'Upload' })).toBeEnabled();
  await expect(detail().getByRole('button', { name: 'Create folder' })).toBeEnabled();
});
