import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';

// The recycle bin: a deleted file goes to the matter's bin; the toast's Undo brings it back; deleted again, it is
// restored from the bin's dialog. At 1440 px and on a phone (390 px), on a Strongroom of this file's own.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-bin-setup-token-0123456789abcdef012345';
const ADMIN = { email: 'bea@bin.test', name: 'Bea Bin', password: 'bin passphrase here', firm: 'Bin & Partners' };

let server: RunningServer;
let root: string;
let page: Page;
let matterId: string;
let file: string;

const HEADERS = () => ({ Origin: server.url, 'x-api-version': 'v1.0.0' });
const api = async (url: string, data: unknown) => {
  const res = await page.request.post(url, { headers: HEADERS(), data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};
const detail = () => page.getByRole('main');
const contents = () => detail().getByRole('table');
const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

async function deleteFromRow(name: string) {
  await contents()
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const del = page.getByRole('alertdialog', { name: 'Delete File' });
  await expect(del.getByText('It goes to the recycle bin for 30 days and can be restored until then.')).toBeVisible();
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(del).toBeHidden();
  await expect(toast('Moved to the recycle bin')).toBeVisible();
  await expect(contents().getByRole('row', { name: `File ${name}` })).toHaveCount(0);
}

async function restoreFromBin(name: string, shotName: string) {
  await detail().getByRole('button', { name: 'Recycle bin' }).click();
  const bin = page.getByRole('dialog', { name: 'Recycle bin' });
  const item = bin.getByRole('listitem', { name: `${name} in the recycle bin` });
  await expect(item).toBeVisible();
  await expect(item).toContainText('From Root');
  await expect(item).toContainText(`Deleted by ${ADMIN.name}`);
  await expect(item).toContainText('Deleted forever on');
  await shotThemes(page, shotName);
  await item.getByRole('button', { name: `Restore ${name}` }).click();
  await expect(toast(`"${name}" was restored.`)).toBeVisible();
  await expect(bin.getByText('The recycle bin is empty.')).toBeVisible();
  await checkA11y(page, `${shotName}-empty`);
  await page.keyboard.press('Escape');
  await expect(bin).toBeHidden();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-bin-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  file = path.join(root, 'defence.pdf');
  fs.writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(8 * 1024)]));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in, make a matter and upload a file', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  matterId = (
    await api('/_api/matters/create', { matterName: 'Ashworth v Crane', clientName: 'Ashworth Ltd', responsibleAttorney: 'Bea Bin' })
  ).matter.id;
  await page.goto(`/matters/${matterId}`);
  await expect(detail().getByRole('heading', { name: 'Ashworth v Crane' })).toBeVisible();
  await detail().getByRole('button', { name: 'Upload' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await upload.getByLabel('Choose files to upload').setInputFiles(file);
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(upload).toBeHidden({ timeout: 10_000 });
  await expect(contents().getByRole('row', { name: 'File defence.pdf' })).toBeVisible();
});

test('at 1440 px: delete a file, Undo from the toast, delete again, restore from the bin', async () => {
  await deleteFromRow('defence.pdf');
  await checkA11y(page, 'recycle-bin-toast');
  await toast('Moved to the recycle bin').getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Undo operation successful.')).toBeVisible();
  await expect(contents().getByRole('row', { name: 'File defence.pdf' })).toBeVisible();

  await deleteFromRow('defence.pdf');
  await restoreFromBin('defence.pdf', 'recycle-bin-1440');
  await expect(contents().getByRole('row', { name: 'File defence.pdf' })).toBeVisible();
});

test('on a phone (390 px): the bin lists the deleted file and restores it', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  const tree = await (await page.request.get(`/_api/matters/detail?matterId=${matterId}`, { headers: HEADERS() })).json();
  const node = (tree.nodes as Array<{ id: string; name: string }>).find((n) => n.name === 'defence.pdf')!;
  await api('/_api/nodes/delete', { nodeId: node.id });
  await page.reload();
  await expect(detail().getByRole('heading', { name: 'Ashworth v Crane' })).toBeVisible();
  await restoreFromBin('defence.pdf', 'recycle-bin-390');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the page does not widen past the phone').toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1440, height: 900 });
});
