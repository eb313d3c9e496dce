import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { fromBuffer, type Entry } from 'yauzl';
import { startFirmServer, type RunningServer } from './support/server.js';
import { setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';

// The top bar's search: a file three folders deep found by name and opened with the keyboard, Ctrl+K, and the
// full-width search of a phone; and the matter workspace's 'Search in this matter', which finds a file two folders
// down from the matter's root; on a Strongroom of this test file's own.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-top-search-setup-token-0123456789abcdef';
const ADMIN = { email: 'ria@harbour.test', name: 'Ria Finder', password: 'finder passphrase', firm: 'Harbour Legal' };

let server: RunningServer;
let root: string;
let page: Page;
const ids = { matter: '', signed: '', final: '', file: '', deed: '' };

const api = async (method: 'get' | 'post', url: string, data?: unknown) => {
  const res = await page.request[method](url, { headers: { Origin: server.url, 'x-api-version': 'v1.0.0' }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};

/** Stores a file through the upload calls: presigned URL, PUT, completion. */
async function upload(matterId: string, parentId: string | null, fileName: string, bytes: Buffer): Promise<string> {
  const fileType = 'application/pdf';
  const signed = await api('post', '/_api/upload/presigned', { fileName, fileType, matterId, parentId, fileSize: bytes.length });
  const put = await page.request.put(signed.url, { headers: signed.headers, data: bytes });
  expect(put.status(), await put.text()).toBe(200);
  const done = await api('post', '/_api/upload/multipart-complete', {
    s3Key: signed.s3Key,
    fileName,
    fileType,
    matterId,
    parentId,
    fileSize: bytes.length,
  });
  return done.file.id as string;
}

const folder = async (matterId: string, parentId: string | null, folderName: string) =>
  (await api('post', '/_api/nodes/create', { matterId, parentId, folderName })).node.id as string;

const searchBox = () => page.getByRole('combobox', { name: 'Search matters, files and folders' });

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-top-search-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in and file an agreement three folders deep', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  const matter = await api('post', '/_api/matters/create', {
    matterName: 'Harbour Acquisition',
    clientName: 'Quayside Holdings',
    responsibleAttorney: 'Ria Finder',
  });
  ids.matter = matter.matter.id;
  const contracts = await folder(ids.matter, null, 'Contracts');
  ids.signed = await folder(ids.matter, contracts, 'Signed');
  ids.final = await folder(ids.matter, ids.signed, 'Final');
  ids.file = await upload(ids.matter, ids.final, 'Zephyr agreement.pdf', Buffer.from('%PDF-1.4 zephyr'));
  await upload(ids.matter, null, 'Zephyr cover note.pdf', Buffer.from('%PDF-1.4 note'));
  // Two folders down from the matter's root; another matter holds a file of the same name.
  ids.deed = await upload(ids.matter, ids.signed, 'Orchid deed.pdf', Buffer.from('%PDF-1.4 deed'));
  const other = await api('post', '/_api/matters/create', {
    matterName: 'Orchid Estate',
    clientName: 'Other Client',
    responsibleAttorney: 'Ria Finder',
  });
  await upload(other.matter.id, null, 'Orchid deed.pdf', Buffer.from('%PDF-1.4 other deed'));
});

const matterSearchBox = () => page.getByRole('searchbox', { name: 'Search in this matter' });

test("'Search in this matter' finds a file two folders down, with its path, and opens it selected", async () => {
  await page.goto(`/matters/${ids.matter}`);
  const dialog = page.getByRole('main');
  await expect(dialog.getByRole('table', { name: 'Contents of Root' })).toBeVisible();
  await expect(matterSearchBox()).toHaveAttribute('placeholder', 'Search in this matter...');
  await matterSearchBox().fill('orchid');
  const results = dialog.getByRole('region', { name: 'Files and folders matching “orchid”' });
  // Only this matter's file: the other matter's file of the same name is not listed.
  await expect(results.getByRole('button')).toHaveCount(1);
  const deed = results.getByRole('button', { name: /File Orchid deed\.pdf/ });
  await expect(deed).toContainText('Root / Contracts / Signed');
  await shotThemes(page, 'matter-search-results-1440');

  await matterSearchBox().fill('no such name');
  await expect(dialog.getByText('No files or folders match')).toBeVisible();
  await matterSearchBox().fill('');
  await expect(dialog.getByRole('table', { name: 'Contents of Root' })).toBeVisible();

  await matterSearchBox().fill('orchid');
  await expect(deed).toBeVisible();
  // The box, then ZIP, Recycle bin and Upload, then the results.
  await matterSearchBox().press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(deed).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/matters/${ids.matter}\\?folder=${ids.signed}&file=${ids.deed}$`));
  const row = dialog.getByRole('row', { name: 'File Orchid deed.pdf' });
  await expect(row).toHaveAttribute('aria-current', 'true');
  await expect(row).toBeFocused();
  await expect(matterSearchBox()).toHaveValue('');
});

/** A ZIP's entries and their bytes, read with an independent ZIP reader. */
function zipEntries(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a ZIP'));
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('the whole matter, or the folder open, downloads as one ZIP with a manifest of sha256 checksums', async () => {
  await page.goto(`/matters/${ids.matter}`);
  const dialog = page.getByRole('main');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download matter as ZIP' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Harbour Acquisition.zip');
  const saved = path.join(root, 'matter.zip');
  await download.saveAs(saved);
  const zip = await zipEntries(fs.readFileSync(saved));
  expect([...zip.keys()].sort()).toEqual(
    ['Contracts/Signed/Final/Zephyr agreement.pdf', 'Contracts/Signed/Orchid deed.pdf', 'Zephyr cover note.pdf', 'manifest.csv'].sort(),
  );
  expect(zip.get('Contracts/Signed/Orchid deed.pdf')!.toString()).toBe('%PDF-1.4 deed');
  const deedSha = createHash('sha256').update('%PDF-1.4 deed').digest('hex');
  expect(zip.get('manifest.csv')!.toString()).toContain(`Contracts/Signed/Orchid deed.pdf,13,${deedSha}`);

  await page.goto(`/matters/${ids.matter}?folder=${ids.signed}`);
  const [folderZip] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download folder as ZIP' }).click(),
  ]);
  expect(folderZip.suggestedFilename()).toBe('Signed.zip');
  await folderZip.saveAs(saved);
  expect([...(await zipEntries(fs.readFileSync(saved))).keys()].sort()).toEqual([
    'Final/Zephyr agreement.pdf',
    'Orchid deed.pdf',
    'manifest.csv',
  ]);
});

test('Ctrl+K, type the file name, pick it with the keyboard, land at its folder with the file selected', async () => {
  await page.goto('/matters');
  await expect(searchBox()).toBeVisible();
  await expect(searchBox()).toHaveAttribute('aria-keyshortcuts', 'Control+K Meta+K');
  await page.keyboard.press('Control+k');
  await expect(searchBox()).toBeFocused();
  await page.keyboard.type('zephyr agr');
  const list = page.getByRole('listbox', { name: 'Search results' });
  // The matter, its file, and last the search of documents' contents.
  await expect(list.getByRole('option')).toHaveCount(3);
  const file = list.getByRole('option', { name: /Zephyr agreement\.pdf/ });
  await expect(file).toContainText('Root / Contracts / Signed / Final');
  await expect(list.getByRole('group', { name: 'Harbour Acquisition' })).toBeVisible();
  await shotThemes(page, 'search-results-1440');

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(file).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/matters/${ids.matter}\\?folder=${ids.final}&file=${ids.file}$`));
  const dialog = page.getByRole('main');
  await expect(dialog.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Final');
  const row = dialog.getByRole('row', { name: 'File Zephyr agreement.pdf' });
  await expect(row).toHaveAttribute('aria-current', 'true');
  await expect(row).toBeFocused();
  await shotThemes(page, 'search-file-selected-1440');
});

test('Escape closes the list; Enter with nothing highlighted opens the Matters list filtered by the text', async () => {
  await page.goto('/matters');
  await searchBox().fill('harbour');
  await expect(page.getByRole('option', { name: /Harbour Acquisition/ })).toBeVisible();
  await searchBox().press('Escape');
  await expect(searchBox()).toHaveAttribute('aria-expanded', 'false');
  await searchBox().press('Enter');
  await expect(page).toHaveURL(/\/matters\?q=harbour$/);
  await expect(page.getByLabel('Search matters', { exact: true })).toHaveValue('harbour');
});

test('at 390 px an icon opens the search across the bar', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/matters');
  await page.getByRole('button', { name: 'Search matters, files and folders' }).click();
  await expect(searchBox()).toBeFocused();
  await page.keyboard.type('zephyr');
  await expect(page.getByRole('option', { name: /Zephyr agreement\.pdf/ })).toBeVisible();
  await shotThemes(page, 'search-results-390');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/matters\/[0-9a-f-]{36}/);
  await expect(page.getByRole('main')).toBeVisible();
});

test("'Search in this matter' at 390 px", async () => {
  await page.goto(`/matters/${ids.matter}`);
  await matterSearchBox().fill('orchid');
  const deed = page.getByRole('button', { name: /File Orchid deed\.pdf/ });
  await expect(deed).toContainText('Root / Contracts / Signed');
  await shotThemes(page, 'matter-search-results-390');
  await deed.click();
  await expect(page.getByRole('row', { name: 'File Orchid deed.pdf' })).toHaveAttribute('aria-current', 'true');
});
