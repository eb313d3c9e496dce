import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, setUpEmailMfa, signInWithEmail } from './support/fixtures.js';

// Undo from the success toast: a folder rename and a matter edit are taken back on the server; an undo after a
// later change fails with the undo texts (UNDO_MSG). On a Strongroom of this test file's own.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-undo-setup-token-0123456789abcdef0123';
const ADMIN = { email: 'uma@undo.test', name: 'Uma Undo', password: 'undo passphrase here', firm: 'Undo & Partners' };

let server: RunningServer;
let root: string;
let page: Page;
let matterId: string;

const api = async (url: string, data: unknown) => {
  const res = await page.request.post(url, { headers: { Origin: server.url, 'x-api-version': 'v1.0.0' }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};
const detail = () => page.getByRole('main');
const contents = () => detail().getByRole('table');
/** The toast that says `text`, and its Undo button. */
const toastUndo = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).getByRole('button', { name: 'Undo' });

async function renameFolder(from: string, to: string) {
  await contents()
    .getByRole('button', { name: `Actions for ${from}` })
    .click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename Folder' });
  await dialog.getByLabel('New name').fill(to);
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog).toBeHidden();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-undo-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in, make a matter with a folder and open it', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  matterId = (
    await api('/_api/matters/create', {
      matterName: 'Pemberton Estate',
      clientName: 'Pemberton Family Trust',
      responsibleAttorney: 'Uma Undo',
    })
  ).matter.id;
  await api('/_api/nodes/create', { matterId, parentId: null, folderName: 'Pleadings' });
  await page.goto(`/matters/${matterId}`);
  await expect(detail().getByRole('heading', { name: 'Pemberton Estate' })).toBeVisible();
  await expect(contents().getByRole('row', { name: 'Folder Pleadings' })).toBeVisible();
});

test('a folder rename is undone from its toast', async () => {
  await renameFolder('Pleadings', 'Court Filings');
  await expect(contents().getByRole('row', { name: 'Folder Court Filings' })).toBeVisible();
  await expect(toastUndo('"Pleadings" was renamed.')).toBeVisible();
  await checkA11y(page, 'undo-toast');
  await toastUndo('"Pleadings" was renamed.').click();
  await expect(page.getByText('Undo operation successful.')).toBeVisible();
  await expect(contents().getByRole('row', { name: 'Folder Pleadings' })).toBeVisible();
  await expect(contents().getByRole('row', { name: 'Folder Court Filings' })).toHaveCount(0);
});

test('an undo after a later change fails and leaves the later change in place', async () => {
  await renameFolder('Pleadings', 'Filings');
  // Someone renames the folder again before the Undo is clicked.
  const tree = await (
    await page.request.get(`/_api/matters/detail?matterId=${matterId}`, { headers: { 'x-api-version': 'v1.0.0' } })
  ).json();
  const folder = (tree.nodes as Array<{ id: string; name: string }>).find((n) => n.name === 'Filings')!;
  await api('/_api/nodes/rename', { nodeId: folder.id, newName: 'Filings (final)' });
  await toastUndo('"Pleadings" was renamed.').click();
  const failed = page.locator('[data-sonner-toast]').filter({ hasText: 'Undo failed' });
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('The action has expired or is no longer available.');
  await checkA11y(page, 'undo-failed-toast');
  await page.reload();
  await expect(contents().getByRole('row', { name: 'Folder Filings (final)' })).toBeVisible();
});

test('a matter edit is undone from its toast', async () => {
  await detail().getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Matter' });
  await edit.getByLabel('Matter Name').fill('Pemberton Estate (probate)');
  await edit.getByLabel('Client Name').fill('');
  await page.keyboard.press('Escape'); // closes the suggestions, not the dialog
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  await expect(detail().getByRole('heading', { name: 'Pemberton Estate (probate)' })).toBeVisible();
  await toastUndo('Pemberton Estate (probate) was updated.').click();
  await expect(page.getByText('Undo operation successful.')).toBeVisible();
  await expect(detail().getByRole('heading', { name: 'Pemberton Estate', exact: true })).toBeVisible();
  await expect(detail().getByText('Pemberton Family Trust')).toBeVisible();
});
