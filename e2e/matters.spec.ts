import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, expectTableFits, setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';

// Matters, folders and uploads on a Strongroom of their own (own DATA_DIR and port), so this story does not
// depend on the order of the other specs: the firm is set up through POST /_api/setup, then the admin signs
// in through the UI with emailed codes.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-matters-setup-token-0123456789abcdef';
const ADMIN = { email: 'mia@harbor.test', name: 'Mia Matters', password: 'matters passphrase', firm: 'Harbor & Co' };
const MB = 1024 * 1024;

let server: RunningServer;
let root: string;
let page: Page;
let smallFile: string;
let bigFile: string;

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

const detail = () => page.getByRole('main');
const contents = () => detail().getByRole('table');

async function createFolder(name: string) {
  await detail().getByRole('button', { name: 'Create folder' }).click();
  const d = page.getByRole('dialog', { name: 'Create New Folder' });
  await d.getByPlaceholder('Enter folder name').fill(name);
  await checkA11y(page, 'create-folder-dialog');
  await d.getByRole('button', { name: 'Create Folder' }).click();
  await expect(page.getByText(`Folder "${name}" created successfully.`)).toBeVisible();
  await expect(d).toBeHidden();
}

async function rowAction(name: string, action: string) {
  await contents()
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-matters-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));

  smallFile = path.join(root, 'engagement-letter.pdf');
  fs.writeFileSync(smallFile, Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(48 * 1024)]));
  bigFile = path.join(root, 'evidence-archive.zip');
  const chunk = crypto.randomBytes(MB);
  const fd = fs.openSync(bigFile, 'w');
  for (let i = 0; i < 120; i += 1) {
    chunk.writeUInt32BE(i, 0); // every MB differs
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);

  page = await (await browser.newContext({ baseURL: server.url, acceptDownloads: true, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the admin signs in with an emailed code and sets up email MFA', async () => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
});

test('create a matter, find it in the list and open it', async () => {
  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' }).click();
  await expect(page.getByRole('heading', { name: 'Matters', level: 1 })).toBeVisible();
  await expect(page.getByText('No matters found matching your criteria.')).toBeVisible();
  await checkA11y(page, 'matters-list-empty');

  await page.getByRole('button', { name: 'New Matter' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Matter' });
  // The number is generated when the dialog opens, and stays editable.
  const year = new Date().getUTCFullYear();
  await expect(create.getByLabel('Matter Number')).toHaveValue(`MAT-${year}-001`);
  await create.getByRole('button', { name: 'Create Matter' }).click();
  await expect(create.getByText('Matter name is required.')).toBeVisible();
  await expect(create.getByText('Client name is required.')).toBeVisible();
  await expect(create.getByText('Responsible attorney is required.')).toBeVisible();
  await checkA11y(page, 'matters-create-dialog-errors');
  await create.getByLabel('Matter Name').fill('Harbor Lease Dispute');
  await create.getByLabel('Client Name').fill('Northwind Shipping');
  await create
    .getByLabel('Description')
    .fill('Commercial lease dispute over the east pier warehouses, including correspondence, filings and expert reports.');
  await create.getByLabel('Responsible Attorney').fill('Mia Matters');
  await page.keyboard.press('Escape'); // closes the suggestions, not the dialog
  await expect(create).toBeVisible();
  await expect(create.getByText('Auto-generated but can be edited if needed.')).toBeVisible();
  await shotThemes(page, 'matters-create-dialog');
  await create.getByRole('button', { name: 'Create Matter' }).click();
  await expect(page.getByText('Matter created successfully!')).toBeVisible();
  await expect(create).toBeHidden();

  // A second one with the same number is refused on the number field.
  const row = page.getByRole('row', { name: 'Open matter Harbor Lease Dispute' });
  await expect(row).toBeVisible();
  const number = (await row.getByRole('cell').nth(1).innerText()).trim();
  expect(number).toBe(`MAT-${year}-001`);
  await page.getByRole('button', { name: 'New Matter' }).click();
  await expect(create.getByLabel('Matter Number')).toHaveValue(`MAT-${year}-002`);
  await create.getByLabel('Matter Name').fill('Duplicate Number');
  await create.getByLabel('Matter Number').fill(number);
  await create.getByLabel('Client Name').fill('Northwind Shipping');
  await create.getByLabel('Responsible Attorney').fill('Mia Matters');
  await page.keyboard.press('Escape');
  await create.getByRole('button', { name: 'Create Matter' }).click();
  await expect(create.getByText('A matter with this number already exists.')).toBeVisible();
  await create.getByLabel('Matter Number').fill('');
  await create.getByLabel('Matter Name').fill('Estate of A. Pemberton');
  await create.getByLabel('Client Name').fill('Pemberton Family Trust');
  await page.keyboard.press('Escape');
  await create.getByRole('button', { name: 'Create Matter' }).click();
  await expect(create).toBeHidden();

  // Search (debounced) keeps its value in the URL.
  await page.getByLabel('Search matters', { exact: true }).fill('lease');
  await expect(page).toHaveURL(/[?&]q=lease/);
  await expect(page.getByRole('row', { name: /Open matter/ })).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Search matters', { exact: true })).toHaveValue('lease');
  await expect(page.getByRole('row', { name: /Open matter/ })).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByRole('row', { name: /Open matter/ })).toHaveCount(2);
  await shotThemes(page, 'matters-list');
  await expectTableFits(page, page.getByRole('table', { name: 'Matters' }), 'matters-list');

  // Rows open with the keyboard.
  await page.getByRole('row', { name: 'Open matter Harbor Lease Dispute' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/matters\/[0-9a-f-]{36}/);
  await expect(detail().getByRole('heading', { name: 'Harbor Lease Dispute' })).toBeVisible();
  await expect(detail().getByText('This folder is empty')).toBeVisible();
  await checkA11y(page, 'matters-detail-empty');
});

test('build a folder tree, rename and move folders', async () => {
  await createFolder('Pleadings');
  await createFolder('Correspondence');
  await contents().getByRole('row', { name: 'Folder Pleadings' }).dblclick();
  await expect(detail().getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Pleadings');
  await createFolder('Drafts');
  await contents().getByRole('row', { name: 'Folder Drafts' }).focus();
  await page.keyboard.press('Enter');
  await createFolder('Old');
  await expect(detail().getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Root');

  // Rename Drafts (from within Pleadings).
  await detail().getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Pleadings' }).click();
  await rowAction('Drafts', 'Rename');
  const rename = page.getByRole('dialog', { name: 'Rename Folder' });
  await rename.getByLabel('New name').fill('Working Drafts');
  await checkA11y(page, 'rename-folder-dialog');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('"Drafts" was renamed.')).toBeVisible();
  await expect(contents().getByRole('row', { name: 'Folder Working Drafts' })).toBeVisible();

  // Move Working Drafts to Correspondence: the folder itself and its current parent are not offered.
  await rowAction('Working Drafts', 'Move');
  const move = page.getByRole('dialog', { name: 'Move "Working Drafts"' });
  const picker = move.getByRole('navigation', { name: 'Destination folder' });
  await expect(picker.getByRole('button', { name: 'Pleadings', exact: true })).toBeDisabled();
  await expect(move.getByRole('button', { name: 'Move Here' })).toBeDisabled();
  await picker.getByRole('button', { name: 'Correspondence', exact: true }).click();
  await shotThemes(page, 'matters-move-dialog');
  await move.getByRole('button', { name: 'Move Here' }).click();
  await expect(page.getByText('"Working Drafts" was moved.')).toBeVisible();
  await expect(detail().getByText('This folder is empty')).toBeVisible();
});

test('upload a small file, then a 120 MB file in parts with a reload in the middle', async () => {
  test.setTimeout(180_000);
  await detail().getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Root', exact: true }).click();
  await detail().getByRole('button', { name: 'Upload' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await upload.getByLabel('Choose files to upload').setInputFiles(smallFile);
  await expect(upload.getByText('engagement-letter.pdf')).toBeVisible();
  await checkA11y(page, 'matters-upload-queued');
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('All 1 files uploaded successfully!')).toBeVisible();
  await expect(upload).toBeHidden({ timeout: 5_000 });
  await expect(contents().getByRole('row', { name: 'File engagement-letter.pdf' })).toBeVisible();

  // Multipart: parts 1 to 5 get through, the rest hang; then the page reloads.
  const held: Route[] = [];
  const isPart = (url: URL) => url.pathname.startsWith('/_objects') && url.searchParams.has('partNumber');
  await page.route(isPart, (route) => {
    const n = Number(new URL(route.request().url()).searchParams.get('partNumber'));
    if (n <= 5) return route.continue();
    held.push(route);
  });
  await detail().getByRole('button', { name: 'Upload' }).click();
  await upload.getByLabel('Choose files to upload').setInputFiles(bigFile);
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.waitForFunction(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('strongroom.upload:') && k.includes('evidence-archive.zip'));
    return key ? (JSON.parse(localStorage.getItem(key)!) as { uploadedChunks: unknown[] }).uploadedChunks.length >= 5 : false;
  });
  await expect(upload.getByRole('progressbar', { name: 'Progress of evidence-archive.zip' })).not.toHaveAttribute('aria-valuenow', '0');
  await shotThemes(page, 'matters-upload-progress');
  // The connection drops for the parts in flight: the row says which part failed; then the page reloads.
  for (const r of held) await r.abort('connectionreset').catch(() => undefined);
  await expect(upload.getByText(/^Failed to upload chunk (6|7|8|9|10)\.$/)).toBeVisible();
  await page.unroute(isPart);
  await page.reload();

  // The same file again: the client asks which parts are stored and sends only the other seven.
  await expect(detail().getByRole('heading', { name: 'Harbor Lease Dispute' })).toBeVisible();
  const partPuts: number[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (req.method() === 'PUT' && isPart(url)) partPuts.push(Number(url.searchParams.get('partNumber')));
  });
  await detail().getByRole('button', { name: 'Upload' }).click();
  await upload.getByLabel('Choose files to upload').setInputFiles(bigFile);
  const listed = page.waitForRequest((req) => req.url().includes('/_api/upload/parts?'));
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await listed;
  await expect(contents().getByRole('row', { name: 'File evidence-archive.zip' })).toContainText('120.00 MB', { timeout: 120_000 });
  await expect(upload).toBeHidden();
  expect(partPuts.sort((a, b) => a - b)).toEqual([6, 7, 8, 9, 10, 11, 12]);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('strongroom.upload:')).length)).toBe(0);
});

test('a batch with a refused file stays open with the row errors', async () => {
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await detail().getByRole('button', { name: 'Upload' }).click();
  const statement = path.join(root, 'witness-statement.txt');
  fs.writeFileSync(statement, 'The witness states that the pier was closed on the 3rd.\n');
  const script = path.join(root, 'installer.exe');
  fs.writeFileSync(script, 'MZ');
  await upload.getByLabel('Choose files to upload').setInputFiles([statement, script]);
  await expect(upload.getByText('Invalid file type.')).toBeVisible();
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Some uploads failed. You can retry individual files or remove them.')).toBeVisible();
  await expect(upload.getByRole('progressbar', { name: 'Progress of witness-statement.txt' })).toHaveAttribute('aria-valuenow', '100');
  await shotThemes(page, 'matters-upload-done');
  await upload.getByRole('button', { name: 'Remove installer.exe' }).click();
  await upload.getByRole('button', { name: 'Done' }).click();
  await expect(upload).toBeHidden();
  await expect(contents().getByRole('row', { name: 'File witness-statement.txt' })).toBeVisible();
});

test('download a file intact, delete a folder, screenshots of the detail', async () => {
  const downloaded = page.waitForEvent('download');
  await rowAction('engagement-letter.pdf', 'Download');
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe('engagement-letter.pdf');
  expect(sha256(await download.path())).toBe(sha256(smallFile));

  await detail().getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Correspondence', exact: true }).click();
  await expect(contents().getByRole('row', { name: 'Folder Working Drafts' })).toBeVisible();
  await detail().getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Root', exact: true }).click();
  await shotThemes(page, 'matters-detail');

  await rowAction('Pleadings', 'Delete');
  const del = page.getByRole('alertdialog', { name: 'Delete Folder' });
  await expect(del.getByText('It goes to the recycle bin for 30 days and can be restored until then.')).toBeVisible();
  await checkA11y(page, 'delete-folder-dialog');
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Moved to the recycle bin')).toBeVisible();
  await expect(contents().getByRole('row', { name: 'Folder Pleadings' })).toHaveCount(0);
  await expect(contents().getByRole('row', { name: 'Folder Correspondence' })).toBeVisible();
});

test('right-click menus on rows and folders: the same actions as the row dropdown', async () => {
  // Root now holds Correspondence (with Working Drafts), engagement-letter.pdf, evidence-archive.zip and
  // witness-statement.txt; engagement-letter.pdf is renamed below.
  await contents().getByRole('row', { name: 'Folder Correspondence' }).click({ button: 'right' });
  const folderMenu = page.getByRole('menu', { name: 'Actions for Correspondence' });
  await expect(folderMenu.getByRole('menuitem')).toHaveText(['Open', 'Rename', 'Move', 'Delete']);
  await shotThemes(page, 'matters-context-menu-folder');
  await folderMenu.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename Folder' });
  await rename.getByLabel('New name').fill('Client Correspondence');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('"Correspondence" was renamed.')).toBeVisible();
  await expect(contents().getByRole('row', { name: 'Folder Client Correspondence' })).toBeVisible();

  // Files: Open preview, Download, Versions, Rename, Move and Delete.
  await contents().getByRole('row', { name: 'File engagement-letter.pdf' }).click({ button: 'right' });
  const fileMenu = page.getByRole('menu', { name: 'Actions for engagement-letter.pdf' });
  await expect(fileMenu.getByRole('menuitem')).toHaveText(['Open preview', 'Download', 'Versions', 'Rename', 'Move', 'Delete']);
  await expect(fileMenu.getByRole('menuitem', { name: 'Download' })).toBeEnabled();
  await expect(fileMenu.getByRole('menuitem', { name: 'Rename' })).toBeEnabled();
  await shotThemes(page, 'matters-context-menu-file');
  await page.keyboard.press('Escape');
  await expect(fileMenu).toBeHidden();
  await expect(detail()).toBeVisible(); // Escape closed only the menu

  // The same list as the row's Actions dropdown.
  await contents().getByRole('button', { name: 'Actions for engagement-letter.pdf' }).click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText([
    'Open preview',
    'Download',
    'Versions',
    'Rename',
    'Move',
    'Delete',
  ]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(contents().getByRole('button', { name: 'Actions for engagement-letter.pdf' })).toBeFocused();

  // Renaming a file: the name is selected up to its extension; a name the folder holds is refused on the field,
  // and the dialog stays open to correct it.
  await rowAction('engagement-letter.pdf', 'Rename');
  const renameFile = page.getByRole('dialog', { name: 'Rename File' });
  const newName = renameFile.getByLabel('New name');
  await expect(newName).toBeFocused();
  expect(await newName.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0))).toBe(
    'engagement-letter',
  );
  await newName.fill('Evidence-Archive.zip');
  await renameFile.getByRole('button', { name: 'Rename' }).click();
  const clash = 'An item named "Evidence-Archive.zip" already exists in this folder.';
  await expect(renameFile.getByText(clash)).toBeVisible();
  await expect(newName).toHaveAttribute('aria-invalid', 'true');
  await expect(newName).toHaveAccessibleDescription(clash);
  await checkA11y(page, 'rename-file-dialog');
  await shotThemes(page, 'matters-rename-file-refused');
  await newName.fill('Engagement Letter (signed).pdf');
  await renameFile.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('"engagement-letter.pdf" was renamed.')).toBeVisible();
  await expect(renameFile).toBeHidden();
  await expect(contents().getByRole('row', { name: 'File Engagement Letter (signed).pdf', exact: true })).toBeVisible();
  await expect(contents().getByRole('row', { name: 'File engagement-letter.pdf' })).toHaveCount(0);
  await shotThemes(page, 'matters-file-renamed');

  // From the keyboard: Shift+F10 or the ContextMenu key on a focused row, first item focused; Escape gives
  // the focus back to the row.
  const statement = contents().getByRole('row', { name: 'File witness-statement.txt' });
  await statement.focus();
  await page.keyboard.press('Shift+F10');
  const statementMenu = page.getByRole('menu', { name: 'Actions for witness-statement.txt' });
  await expect(statementMenu.getByRole('menuitem', { name: 'Open preview' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(statementMenu).toBeHidden();
  await expect(statement).toBeFocused();
  await page.keyboard.press('ContextMenu');
  await expect(statementMenu.getByRole('menuitem', { name: 'Open preview' })).toBeFocused();
  await expect(statementMenu).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(statementMenu.getByRole('menuitem', { name: 'Download' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(statementMenu.getByRole('menuitem', { name: 'Versions' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(statementMenu.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(statementMenu.getByRole('menuitem', { name: 'Move' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(statementMenu.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  const del = page.getByRole('alertdialog', { name: 'Delete File' });
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Moved to the recycle bin')).toBeVisible();
  await expect(contents().getByRole('row', { name: 'File witness-statement.txt' })).toHaveCount(0);

  // Folders in the tree have the same menu: Move from there opens the Move dialog for that folder.
  await detail()
    .getByRole('navigation', { name: 'Folders' })
    .getByRole('button', { name: 'Client Correspondence', exact: true })
    .click({ button: 'right' });
  const treeMenu = page.getByRole('menu', { name: 'Actions for Client Correspondence' });
  await expect(treeMenu.getByRole('menuitem')).toHaveText(['Open', 'Rename', 'Move', 'Delete']);
  await treeMenu.getByRole('menuitem', { name: 'Move' }).click();
  const move = page.getByRole('dialog', { name: 'Move "Client Correspondence"' });
  await expect(move.getByRole('button', { name: 'Move Here' })).toBeDisabled();
  await move.getByRole('button', { name: 'Cancel' }).click();
  await expect(move).toBeHidden();
});

test('the selected folder is in the URL: reload and Back return to it, an unknown id means Root', async () => {
  const tree = detail().getByRole('navigation', { name: 'Folders' });
  const breadcrumb = detail().getByRole('navigation', { name: 'Breadcrumb' });
  await tree.getByRole('button', { name: 'Client Correspondence', exact: true }).click();
  await expect(page).toHaveURL(/[?&]folder=[0-9a-f-]{36}/);
  const folderId = new URL(page.url()).searchParams.get('folder')!;
  await page.reload();
  await expect(breadcrumb.locator('[aria-current="page"]')).toHaveText('Client Correspondence');
  await expect(contents().getByRole('row', { name: 'Folder Working Drafts' })).toBeVisible();

  // Away to another page and Back.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(breadcrumb.locator('[aria-current="page"]')).toHaveText('Client Correspondence');
  expect(new URL(page.url()).searchParams.get('folder')).toBe(folderId);

  // An id that is no folder of this matter: Root, the parameter dropped, no error toast.
  const matterId = new URL(page.url()).pathname.split('/').pop()!;
  for (const bogus of [crypto.randomUUID(), matterId, 'not-an-id']) {
    await page.goto(`/matters/${matterId}?folder=${bogus}`);
    await expect(detail().getByRole('heading', { name: 'Harbor Lease Dispute' })).toBeVisible();
    await expect(breadcrumb.locator('[aria-current="page"]')).toHaveText('Root');
    await expect(page).not.toHaveURL(/folder=/);
    await expect(contents().getByRole('row', { name: 'Folder Client Correspondence' })).toBeVisible();
    await expect(page.locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0);
  }
});

test('edit matter: a change made meanwhile is reported, merged into the form, and both are saved', async () => {
  const matterId = new URL(page.url()).pathname.split('/').pop()!;
  const read = async () => {
    const res = await page.request.get(`/_api/matters/detail?matterId=${matterId}`, { headers: { 'x-api-version': 'v1.0.0' } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { matter: { matterName: string; clientName: string | null; version: number } }).matter;
  };
  await detail().getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Matter' });
  await expect(edit.getByLabel('Matter Name')).toHaveValue('Harbor Lease Dispute');
  await checkA11y(page, 'matters-edit-dialog');
  await edit.getByLabel('Matter Name').fill('Harbor Lease Dispute (East Pier)');

  // Someone else (here the same account from another tab) changes the client meanwhile.
  const before = await read();
  const res = await page.request.post('/_api/matters/update', {
    headers: { Origin: server.url, 'x-api-version': 'v1.0.0' },
    data: { matterId, expectedVersion: before.version, clientName: 'Northwind Shipping Ltd' },
  });
  expect(res.status(), await res.text()).toBe(200);

  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('The resource was modified by another user.')).toBeVisible();
  await expect(
    edit.getByText('Mia Matters changed Client Name. The form now has their changes and yours: check them and save again.'),
  ).toBeVisible();
  await expect(edit.getByLabel('Client Name')).toHaveValue('Northwind Shipping Ltd');
  await expect(edit.getByLabel('Matter Name')).toHaveValue('Harbor Lease Dispute (East Pier)');
  await shotThemes(page, 'matters-edit-conflict');

  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Harbor Lease Dispute (East Pier) was updated.')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(detail().getByRole('heading', { name: 'Harbor Lease Dispute (East Pier)' })).toBeVisible();
  await expect(detail().getByText('Northwind Shipping Ltd', { exact: true })).toBeVisible();
  const after = await read();
  expect(after).toMatchObject({
    matterName: 'Harbor Lease Dispute (East Pier)',
    clientName: 'Northwind Shipping Ltd',
    version: before.version + 2,
  });
});

test('closing Upload Files during an upload asks first: keep uploading, or cancel and close', async () => {
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  const confirm = page.getByRole('alertdialog', { name: 'Cancel uploads?' });
  // The PUT of a standard upload is held until the test lets it go, so the upload stays active.
  const held: Route[] = [];
  const isPut = (url: URL) => url.pathname.startsWith('/_objects') && !url.searchParams.has('partNumber');
  await page.route(isPut, (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    held.push(route);
  });
  const memo = path.join(root, 'settlement-memo.txt');
  fs.writeFileSync(memo, 'Without prejudice: terms for settling the east pier claim.\n'.repeat(2000));

  await detail().getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Root', exact: true }).click();
  await detail().getByRole('button', { name: 'Upload' }).click();
  await upload.getByLabel('Choose files to upload').setInputFiles(memo);
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => held.length).toBe(1);
  await expect(upload.getByRole('listitem', { name: 'settlement-memo.txt' })).toContainText('Uploading');
  await upload.getByRole('button', { name: 'Close' }).first().click(); // the footer's, before the corner X
  await expect(confirm.getByText('There are active uploads. Closing will cancel them. Are you sure?')).toBeVisible();
  await shotThemes(page, 'matters-upload-close-confirm');

  // Keep Uploading: the dialog and the upload go on, and it finishes once the PUT gets through.
  await confirm.getByRole('button', { name: 'Keep Uploading' }).click();
  await expect(confirm).toBeHidden();
  await expect(upload.getByRole('listitem', { name: 'settlement-memo.txt' })).toContainText('Uploading');
  await held.shift()!.continue();
  await expect(page.getByText('All 1 files uploaded successfully!')).toBeVisible();
  await expect(upload).toBeHidden({ timeout: 5_000 });
  await expect(contents().getByRole('row', { name: 'File settlement-memo.txt' })).toBeVisible();

  // Again, and this time Escape then Cancel Uploads: the dialog closes and the file never arrives.
  const brief = path.join(root, 'appeal-brief.txt');
  fs.writeFileSync(brief, 'Grounds of appeal.\n'.repeat(2000));
  await detail().getByRole('button', { name: 'Upload' }).click();
  await upload.getByLabel('Choose files to upload').setInputFiles(brief);
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => held.length).toBe(1);
  await page.keyboard.press('Escape');
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel Uploads' }).click();
  await expect(confirm).toBeHidden();
  await expect(upload).toBeHidden();
  await held
    .shift()!
    .continue()
    .catch(() => undefined); // the browser has dropped it
  await page.unroute(isPut);
  await page.reload();
  await expect(contents().getByRole('row', { name: 'File settlement-memo.txt' })).toBeVisible();
  await expect(contents().getByRole('row', { name: 'File appeal-brief.txt' })).toHaveCount(0);
  await expect(page.locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0);
});
