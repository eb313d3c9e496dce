import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';
import { makePdf } from './support/documents.js';
import { scannedPdf } from '../server/src/platform/text-extraction/test-fixtures.js';

// Finding documents by the words inside them: a plain-text file and a PDF of three pages are uploaded to a matter,
// read in the background (the workspace shows 'Text pending' until they are), found on the search page with the
// words highlighted, and opened in the matter's preview, the PDF at the page the words are on; at laptop and phone
// sizes, in both themes; on a Strongroom of this test file's own.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-document-search-setup-token-0123456789abcdef';
const ADMIN = { email: 'ida@indemnity.test', name: 'Ida Index', password: 'indexing passphrase', firm: 'Index & Partners' };
const TXT_NAME = 'Side letter.txt';
const PDF_NAME = 'Share purchase agreement.pdf';
const SCAN_NAME = 'Scanned letter.pdf';

let server: RunningServer;
let root: string;
let page: Page;
let matterId = '';

const post = async (url: string, data: object) => {
  const res = await page.request.post(url, { headers: { Origin: server.url, 'x-api-version': 'v1.0.0' }, data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return res.json();
};

/** Stores a file at the matter's root through the upload calls: presigned URL, PUT, completion. */
async function upload(fileName: string, fileType: string, bytes: Buffer) {
  const meta = { fileName, fileType, matterId, parentId: null, fileSize: bytes.length };
  const signed = await post('/_api/upload/presigned', meta);
  const put = await page.request.put(signed.url, { headers: signed.headers, data: bytes });
  expect(put.status(), await put.text()).toBe(200);
  await post('/_api/upload/multipart-complete', { s3Key: signed.s3Key, ...meta });
}

const main = () => page.getByRole('main');
const searchField = () => page.getByRole('searchbox', { name: 'Search the text and names of documents' });
const results = () => main().getByRole('list', { name: 'Search results' });

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-document-search-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in, open a matter and upload a text file and a PDF', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  const matter = await post('/_api/matters/create', {
    matterName: 'Northwind Acquisition',
    clientName: 'Northwind Holdings',
    responsibleAttorney: 'Ida Index',
  });
  matterId = matter.matter.id;
  await upload(TXT_NAME, 'text/plain', Buffer.from('The parties agree to the indemnity clause fourteen as signed.\n'));
  const pdf = await makePdf([
    ['Share purchase agreement', 'Between the sellers and the buyer.'],
    ['Warranties', 'The sellers give the warranties in the schedule.'],
    ['Indemnities', 'The sellers shall indemnify the buyer under the indemnity in clause fourteen.'],
  ]);
  await upload(PDF_NAME, 'application/pdf', pdf);
  // A letter scanned to PDF: its pages are pictures of text, read by OCR.
  await upload(SCAN_NAME, 'application/pdf', await scannedPdf(['DEAR SIRS', 'NOTICE OF ESTOPPEL']));
});

test('the workspace shows the files pending until their text is read, and then calm rows', async () => {
  await page.goto(`/matters/${matterId}`);
  const table = main().getByRole('table', { name: 'Contents of Root' });
  await expect(table.getByRole('row', { name: `File ${TXT_NAME}` })).toBeVisible();
  await expect(table.getByRole('row', { name: `File ${PDF_NAME}` })).toBeVisible();
  // The workspace asks again every 5 s while a file is pending: the badges go without a reload.
  await expect(table.getByText('Text pending')).toHaveCount(0, { timeout: 60_000 });
  await expect(table.getByText('Text failed')).toHaveCount(0);
  await checkA11y(page, 'workspace-text-indexed');
});

test("'Search' in the navigation opens the search page; a search shows the hits with the words highlighted", async () => {
  await page.goto('/matters');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search', exact: true }).first().click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search documents' })).toBeVisible();
  await searchField().fill('indemnity');
  await searchField().press('Enter');
  await expect(page).toHaveURL(/\/search\?q=indemnity$/);
  await expect(results().getByRole('link')).toHaveCount(2);
  const txt = results().getByRole('link', { name: new RegExp(TXT_NAME) });
  await expect(txt).toContainText('Northwind Acquisition');
  await expect(txt).toContainText('Northwind Holdings');
  await expect(txt.locator('mark').first()).toHaveText(/indemnity/i);
  await expect(main().getByText(/Page 1 of 1 \(2 results\)/)).toBeVisible();
  await shotThemes(page, 'document-search-1440');

  await page.setViewportSize({ width: 1280, height: 900 });
  await shotThemes(page, 'document-search-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('a filter narrows the hits and stays in the address', async () => {
  await page.goto('/search?q=indemnity');
  await main().getByRole('combobox', { name: 'File type' }).click();
  await page.getByRole('option', { name: 'PDF' }).click();
  await expect(page).toHaveURL(/fileType=pdf/);
  await expect(results().getByRole('link')).toHaveCount(1);
  await page.reload();
  await expect(results().getByRole('link', { name: new RegExp(PDF_NAME) })).toBeVisible();
});

test("a hit opens the file's preview in its matter, the PDF at the page the words are on", async () => {
  await page.goto('/search?q=indemnity');
  await results()
    .getByRole('link', { name: new RegExp(PDF_NAME) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/matters/${matterId}\\?preview=[0-9a-f-]{36}&page=3$`));
  const panel = page.getByRole('region', { name: `Preview of ${PDF_NAME}` });
  await expect(panel.getByRole('heading', { name: PDF_NAME, exact: true })).toBeVisible();
  await expect(panel.getByText('Page 3 of 3')).toBeVisible();
  await expect(panel.getByText('Text indexed')).toBeVisible();
  await shotThemes(page, 'document-search-preview-1440');

  await panel.getByRole('button', { name: 'Close preview' }).click();
  await expect(panel).toBeHidden();
  await expect(page).not.toHaveURL(/page=/);

  await page.goto('/search?q=indemnity');
  await results()
    .getByRole('link', { name: new RegExp(TXT_NAME) })
    .click();
  await expect(page.getByRole('region', { name: `Preview of ${TXT_NAME}` })).toBeVisible();
  await expect(page).not.toHaveURL(/page=/);
});

test('a scanned letter is found by a word on its second page and opens there', async () => {
  await page.goto('/search?q=estoppel');
  const hit = results().getByRole('link', { name: new RegExp(SCAN_NAME) });
  await expect(hit).toBeVisible();
  await expect(hit.locator('mark').first()).toHaveText(/estoppel/i);
  await shotThemes(page, 'document-search-scanned-1440');
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/matters/${matterId}\\?preview=[0-9a-f-]{36}&page=2$`));
  const panel = page.getByRole('region', { name: `Preview of ${SCAN_NAME}` });
  await expect(panel.getByText('Page 2 of 2')).toBeVisible();
  await shotThemes(page, 'document-search-scanned-preview-1440');
});

test("the top bar's search offers the search of contents", async () => {
  await page.goto('/matters');
  const box = page.getByRole('combobox', { name: 'Search matters, files and folders' });
  await box.fill('clause fourteen');
  const option = page.getByRole('option', { name: 'Search document contents for “clause fourteen”' });
  await expect(option).toBeVisible();
  await option.click();
  await expect(page).toHaveURL(/\/search\?q=clause\+fourteen$/);
  await expect(searchField()).toHaveValue('clause fourteen');
  await expect(results().getByRole('link')).not.toHaveCount(0);
});

test('Settings: a new search language is saved and offers a re-index, which runs to the end', async () => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Organization' }).click();
  const card = page.getByRole('region', { name: 'Document search' });
  await expect(card.getByText(/Text indexed/i).first()).toBeVisible();
  await card.getByRole('combobox', { name: 'Search language' }).click();
  await page.getByRole('option', { name: 'No stemming (exact words)' }).click();
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Search settings saved.')).toBeVisible();
  const offer = page.getByRole('dialog', { name: 'Re-index documents?' });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Re-index' }).click();
  await expect(page.getByText('Re-indexing started.')).toBeVisible();
  // Progress shows while the texts are read again, and goes when they all are.
  await expect(card.getByText(/Re-indexing:/)).toHaveCount(0, { timeout: 60_000 });
  await expect(card.getByRole('button', { name: 'Re-index all documents' })).toBeEnabled();
  await shotThemes(page, 'settings-document-search-1440');
  await checkA11y(page, 'settings-document-search');
  // Words are now matched as written: 'indemnities' no longer finds 'indemnity'.
  await page.goto('/search?q=indemnities');
  await expect(results().getByRole('link')).toHaveCount(1);
  await expect(results().getByRole('link', { name: new RegExp(PDF_NAME) })).toBeVisible();
});

test('at 390 px the page reads in one column', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/search?q=indemnity');
  await expect(results().getByRole('link')).toHaveCount(2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the page scrolls sideways at 390 px').toBeLessThanOrEqual(0);
  await shotThemes(page, 'document-search-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});
