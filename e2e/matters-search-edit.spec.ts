import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, setUpEmailMfa, signInWithEmail } from './support/fixtures.js';

// The top bar's search, clearing fields in Edit Matter, and what logout leaves in the browser, on a Strongroom
// of this test file's own.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-search-edit-setup-token-0123456789abcdef';
const ADMIN = { email: 'sam@quayside.test', name: 'Sam Search', password: 'search passphrase', firm: 'Quayside Legal' };

let server: RunningServer;
let root: string;
let page: Page;

const api = async (method: 'get' | 'post', url: string, data?: unknown) => {
  const res = await page.request[method](url, { headers: { Origin: server.url, 'x-api-version': 'v1.0.0' }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-search-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in and make two matters', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  await api('post', '/_api/matters/create', {
    matterName: 'Pemberton Estate',
    clientName: 'Pemberton Family Trust',
    responsibleAttorney: 'Sam Search',
  });
  await api('post', '/_api/matters/create', {
    matterName: 'Quay Wall Collapse',
    clientName: 'Harbour Board',
    responsibleAttorney: 'Sam Search',
  });
});

test("the top bar's search opens the Matters list filtered by what was typed", async () => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Search matters, files and folders' }).fill('pemberton');
  await page.getByRole('combobox', { name: 'Search matters, files and folders' }).press('Enter');
  await expect(page).toHaveURL(/\/matters\?q=pemberton$/);
  await expect(page.getByLabel('Search matters', { exact: true })).toHaveValue('pemberton');
  await expect(page.getByRole('row', { name: /Open matter/ })).toHaveCount(1);
  await expect(page.getByRole('row', { name: /Open matter Pemberton Estate/ })).toBeVisible();
  await checkA11y(page, 'matters-list-search');
  // The status filter starts at All.
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('All');
  // Clear All lists both again; a reload keeps a search.
  await page.getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByRole('row', { name: /Open matter/ })).toHaveCount(2);
  await expect(page).not.toHaveURL(/q=/);
});

test('Edit Matter clears an emptied client and lawyer, and will not remove the number', async () => {
  await page.goto('/matters?q=pemberton');
  await page.getByRole('row', { name: /Open matter Pemberton Estate/ }).click();
  const detail = page.getByRole('main');
  await expect(detail.getByRole('heading', { name: 'Pemberton Estate' })).toBeVisible();
  const matterId = new URL(page.url()).pathname.split('/').pop()!;

  await detail.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Matter' });
  const number = await edit.getByLabel('Matter Number').inputValue();
  await edit.getByLabel('Matter Number').fill('');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('The matter number cannot be removed: it identifies the matter.')).toBeVisible();
  await checkA11y(page, 'matters-edit-number-error');
  await edit.getByLabel('Matter Number').fill(number);

  await edit.getByLabel('Client Name').fill('');
  await edit.getByLabel('Responsible Attorney').fill('');
  await page.keyboard.press('Escape'); // closes the suggestions, not the dialog
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Pemberton Estate was updated.')).toBeVisible();
  await expect(edit).toBeHidden();

  const { matter } = await api('get', `/_api/matters/detail?matterId=${matterId}`);
  expect(matter).toMatchObject({ clientName: null, responsibleLawyer: null, matterNumber: number, version: 2 });
  await detail.getByRole('link', { name: 'Back to Matters' }).click();
  await expect(page.getByRole('row', { name: /Open matter Pemberton Estate/ })).toContainText('No client');
});

test("logout removes the organization's saved upload state from the browser", async () => {
  const { user } = await api('get', '/_api/auth/session');
  const org = user.organizationId as string;
  await page.evaluate((o) => {
    localStorage.setItem(
      `strongroom.upload:${o}:deposition.mp4:209715200:1700000000000`,
      JSON.stringify({ organizationId: o, uploadId: 'u', s3Key: 'k', uploadedChunks: [] }),
    );
    localStorage.setItem('strongroom.upload:another-org:brief.pdf:209715200:1700000000000', '{}');
  }, org);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const left = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('strongroom.upload:')));
  expect(left).toEqual(['strongroom.upload:another-org:brief.pdf:209715200:1700000000000']);
});
