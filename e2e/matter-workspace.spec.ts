import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';

// The matter workspace as a page of its own, on a Strongroom of this file's own: opened from the list and by a
// link in a fresh page load, the folder in the address surviving a reload, the file panel opened by double-click
// and by Enter and closed by Back, at two laptop sizes and on a phone.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-workspace-setup-token-0123456789abcdef';
const ADMIN = { email: 'wes@ledger.test', name: 'Wes Workspace', password: 'workspace passphrase', firm: 'Ledger & Quill' };
const MATTER = { name: 'Ledger Quay Lease', client: 'Quay Holdings' };

let server: RunningServer;
let root: string;
let page: Page;
let matterId = '';
let folderId = '';
const files: Record<string, Buffer> = {};

const api = async (url: string, data: unknown) => {
  const res = await page.request.post(url, { headers: { Origin: server.url, 'x-api-version': 'v1.0.0' }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};
const main = () => page.getByRole('main');
const contents = () => main().getByRole('table', { name: 'Contents of Pleadings' });
const panel = () => page.getByRole('complementary', { name: 'File preview' });
const workspaceUrl = () => new RegExp(`/matters/${matterId}\\?folder=${folderId}$`);
const previewUrl = () => new RegExp(`/matters/${matterId}\\?folder=${folderId}&preview=[0-9a-f-]{36}$`);

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-workspace-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  files['Defence.pdf'] = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(8 * 1024)]);
  files['Witness statement.txt'] = Buffer.from('I saw the quay flood.\n'.repeat(50));
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(root, name), bytes);
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in; a matter with a folder and two files', async () => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  const created = await api('/_api/matters/create', {
    matterName: MATTER.name,
    clientName: MATTER.client,
    responsibleAttorney: ADMIN.name,
  });
  matterId = created.matter.id;
  await api('/_api/matters/create', { matterName: 'Other matter', clientName: 'Someone Else', responsibleAttorney: ADMIN.name });
  folderId = (await api('/_api/nodes/create', { matterId, parentId: null, folderName: 'Pleadings' })).node.id;
  await page.goto(`/matters/${matterId}?folder=${folderId}`);
  await main().getByRole('button', { name: 'Upload' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await upload.getByLabel('Choose files to upload').setInputFiles(Object.keys(files).map((n) => path.join(root, n)));
  await upload.getByRole('button', { name: 'Upload 2 Files' }).click();
  await expect(page.getByText('All 2 files uploaded successfully!')).toBeVisible();
  await expect(upload).toBeHidden();
  await expect(contents().getByRole('row', { name: 'File Defence.pdf' })).toBeVisible();
});

test('opens from the list, names the matter with a real link, and goes back to the same filtered list', async () => {
  await page.goto('/matters?q=quay');
  const row = page.getByRole('row', { name: `Open matter ${MATTER.name}` });
  await expect(page.getByRole('row', { name: /Open matter/ })).toHaveCount(1);
  await expect(row.getByRole('link', { name: MATTER.name })).toHaveAttribute('href', `/matters/${matterId}`);
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/matters/${matterId}$`));
  await expect(main().getByRole('heading', { name: MATTER.name, level: 1 })).toBeVisible();
  await expect(main()).toContainText(MATTER.client);
  await main().getByRole('link', { name: 'Back to Matters' }).click();
  await expect(page).toHaveURL(/\/matters\?q=quay$/);
  await expect(page.getByLabel('Search matters', { exact: true })).toHaveValue('quay');
});

test('a link opens in a new page load, and the folder in the address survives a reload', async () => {
  const fresh = await page.context().newPage();
  await fresh.goto(`/matters/${matterId}?folder=${folderId}`);
  const breadcrumb = fresh.getByRole('main').getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb).toContainText('Pleadings');
  await fresh.reload();
  await expect(breadcrumb).toContainText('Pleadings');
  await expect(fresh.getByRole('main').getByRole('row', { name: 'File Witness statement.txt' })).toBeVisible();
  // An old link to the matter over the list lands on the same page.
  await fresh.goto(`/matters?matter=${matterId}&folder=${folderId}`);
  await expect(fresh).toHaveURL(new RegExp(`/matters/${matterId}\\?folder=${folderId}$`));
  await expect(breadcrumb).toContainText('Pleadings');
  await fresh.close();
});

test("the page asks for the open folder's files only; the preview stays while its person browses other folders", async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const asked: string[] = [];
  const listen = (req: { url(): string }) => {
    const url = new URL(req.url());
    if (url.pathname === '/_api/matters/detail') asked.push(url.searchParams.get('filesIn') ?? 'all');
  };
  page.on('request', listen);
  try {
    await page.goto(`/matters/${matterId}`);
    // The root: its folder, none of the folder's files.
    const rootTable = main().getByRole('table', { name: 'Contents of Root' });
    await expect(rootTable.getByRole('row', { name: 'Folder Pleadings' })).toBeVisible();
    await expect(rootTable.getByRole('row', { name: 'File Defence.pdf' })).toHaveCount(0);
    await rootTable.getByRole('row', { name: 'Folder Pleadings' }).dblclick();
    await expect(contents().getByRole('row', { name: 'File Defence.pdf' })).toBeVisible();
    expect(asked).toEqual(['root', folderId]);

    // A file opened in Pleadings stays in the panel at the root, where its folder's files are not in hand.
    await contents().getByRole('row', { name: 'File Defence.pdf' }).dblclick();
    await expect(panel().getByRole('heading', { name: 'Defence.pdf' })).toBeVisible();
    await main().getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Root', exact: true }).click();
    await expect(rootTable.getByRole('row', { name: 'Folder Pleadings' })).toBeVisible();
    await expect(panel().getByRole('heading', { name: 'Defence.pdf' })).toBeVisible();
    await expect(panel()).toContainText('Root / Pleadings / Defence.pdf');
    // Never the whole tree.
    expect(asked.filter((filesIn) => filesIn !== 'root' && filesIn !== folderId)).toEqual([]);
  } finally {
    page.off('request', listen);
  }
});

for (const [width, height] of [
  [1440, 900],
  [1280, 800],
] as const) {
  test(`at ${width}x${height}: double-click and Enter open the file panel, Back and Close shut it`, async () => {
    await page.setViewportSize({ width, height });
    await page.goto(`/matters/${matterId}?folder=${folderId}`);
    const defence = contents().getByRole('row', { name: 'File Defence.pdf' });
    await expect(defence).toBeVisible();
    // Every column that fits shows whole, the row's actions included.
    await expect(contents().getByRole('button', { name: 'Actions for Defence.pdf' })).toBeInViewport({ ratio: 1 });
    await expect(contents().getByRole('columnheader', { name: /Added by/ })).toBeInViewport({ ratio: 1 });
    await shotThemes(page, `matter-workspace-${width}`);

    await defence.dblclick();
    await expect(page).toHaveURL(previewUrl());
    await expect(panel().getByRole('heading', { name: 'Defence.pdf' })).toBeVisible();
    await expect(panel()).toContainText(crypto.createHash('sha256').update(files['Defence.pdf']!).digest('hex'));
    await expect(panel()).toContainText('Root / Pleadings / Defence.pdf');
    await expect(panel()).toContainText(ADMIN.name);
    // The panel sits beside the contents, which stay in view with each row's actions whole.
    await expect(defence).toBeInViewport();
    await expect(contents().getByRole('button', { name: 'Actions for Defence.pdf' })).toBeInViewport({ ratio: 1 });
    await shotThemes(page, `matter-workspace-preview-${width}`);
    await page.goBack();
    await expect(page).toHaveURL(workspaceUrl());
    await expect(panel()).toHaveCount(0);

    // From the keyboard: Down from the first row reaches the second, Enter opens it; Close shuts it.
    await defence.focus();
    await page.keyboard.press('ArrowDown');
    const witness = contents().getByRole('row', { name: 'File Witness statement.txt' });
    await expect(witness).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel().getByRole('heading', { name: 'Witness statement.txt' })).toBeVisible();
    await panel().getByRole('button', { name: 'Close preview' }).click();
    await expect(page).toHaveURL(workspaceUrl());
    await expect(panel()).toHaveCount(0);
  });
}

test('at 1440x900: the preview panel is resized by its edge, with the mouse or the keyboard, and keeps its width', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/matters/${matterId}?folder=${folderId}`);
  await contents().getByRole('row', { name: 'File Defence.pdf' }).dblclick();
  await expect(panel().getByRole('heading', { name: 'Defence.pdf' })).toBeVisible();
  const edge = panel().getByRole('separator', { name: 'Resize preview panel' });
  const widthOf = async () => Math.round((await panel().boundingBox())!.width);
  const before = await widthOf();
  expect(Number(await edge.getAttribute('aria-valuenow'))).toBe(before);

  // Dragged 120 px to the left, the panel is 120 px wider and the contents narrower.
  const box = (await edge.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(widthOf).toBe(before + 120);

  // From the keyboard: End makes it the narrowest, and every column of the contents shows beside it.
  await edge.focus();
  await page.keyboard.press('End');
  await expect.poll(widthOf).toBe(320);
  await expect(contents().getByRole('columnheader', { name: /Modified/ })).toBeInViewport({ ratio: 1 });
  await expect(contents().getByRole('button', { name: 'Actions for Defence.pdf' })).toBeInViewport({ ratio: 1 });
  await shotThemes(page, 'matter-workspace-preview-narrow-1440');

  // A reload finds the panel as it was left; Enter gives back the default width.
  await page.reload();
  await expect(panel().getByRole('heading', { name: 'Defence.pdf' })).toBeVisible();
  await expect.poll(widthOf).toBe(320);
  await panel().getByRole('separator', { name: 'Resize preview panel' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(widthOf).toBe(before);
  await panel().getByRole('button', { name: 'Close preview' }).click();
});

test('at 390x844: the page stacks, the folders fold under a button, the panel covers the screen, nothing widens', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/matters/${matterId}`);
  await expect(main().getByRole('heading', { name: MATTER.name, level: 1 })).toBeVisible();
  const widest = () => page.evaluate(() => document.documentElement.scrollWidth);
  expect(await widest()).toBeLessThanOrEqual(390);
  // Every action is in reach.
  for (const name of ['Apply Legal Hold', 'Vault Matter', 'Edit', 'Upload', 'Create folder', 'Download matter as ZIP'])
    await expect(main().getByRole('button', { name, exact: true })).toBeVisible();
  await expect(main().getByRole('searchbox')).toBeVisible();
  await shotThemes(page, 'matter-workspace-390');

  const folders = main().getByRole('button', { name: 'Folders' });
  await expect(folders).toHaveAttribute('aria-expanded', 'false');
  await folders.click();
  const tree = main().getByRole('navigation', { name: 'Folders' });
  await expect(tree.getByRole('button', { name: 'Pleadings', exact: true })).toBeVisible();
  await shotThemes(page, 'matter-workspace-390-folders');
  await tree.getByRole('button', { name: 'Pleadings', exact: true }).click();
  await expect(page).toHaveURL(workspaceUrl());
  await expect(tree).toBeHidden();
  expect(await widest()).toBeLessThanOrEqual(390);

  await contents().getByRole('row', { name: 'File Defence.pdf' }).dblclick();
  await expect(panel()).toBeVisible();
  const box = (await panel().boundingBox())!;
  expect(box.width).toBe(390);
  expect(box.height).toBe(844);
  await shotThemes(page, 'matter-workspace-390-preview');
  await page.goBack();
  await expect(panel()).toHaveCount(0);
  expect(await widest()).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("an unknown matter reads 'Matter data not found.' at once", async () => {
  await page.goto(`/matters/${crypto.randomUUID()}`);
  await expect(main().getByText('Matter data not found.')).toBeVisible({ timeout: 3000 });
  await expect(main().getByRole('link', { name: 'Back to Matters' })).toBeVisible();
  await checkA11y(page, 'matter-workspace-not-found');
});
