import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';

// The matters screens' rough edges, on a Strongroom of this file's own: the autocompletes' Add row and their
// closing, the client filter by part of a name, focus coming back from dialogs, the discard prompt, paging and
// a matter that does not exist.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-rough-edges-setup-token-0123456789abcdef';
const ADMIN = { email: 'rae@marlow.test', name: 'Rae Rough', password: 'rough edges passphrase', firm: 'Marlow & Rough' };
const FILLERS = 52;
const TOTAL = FILLERS + 3;

let server: RunningServer;
let root: string;
let page: Page;

const api = async (method: 'get' | 'post', url: string, data?: unknown) => {
  const res = await page.request[method](url, { headers: { Origin: server.url, 'x-api-version': 'v1.0.0' }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};
const rows = () => page.getByRole('row', { name: /Open matter/ });

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-rough-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in and make enough matters for two pages', async () => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  for (let i = 1; i <= FILLERS; i += 1)
    await api('post', '/_api/matters/create', {
      matterName: `Filler ${i}`,
      clientName: 'Filler Client',
      responsibleAttorney: 'Mia Matters',
    });
  await api('post', '/_api/matters/create', {
    matterName: 'Harbour lease',
    clientName: 'Marlow Estates',
    responsibleAttorney: 'Mia Matters',
  });
  await api('post', '/_api/matters/create', {
    matterName: 'Quay boundary',
    clientName: 'marlow estates',
    responsibleAttorney: 'Mia Matters',
  });
  await api('post', '/_api/matters/create', {
    matterName: 'Mill probate',
    clientName: 'Great Marlow Trust',
    responsibleAttorney: 'Mia Matters',
  });
});

test("New Matter: Add '<name>' for a new lawyer, never over the buttons, and the focus back on New Matter", async () => {
  await page.goto('/matters');
  await expect(page.getByText(`Showing 1–50 of ${TOTAL} matters`)).toBeVisible();
  const newMatter = page.getByRole('button', { name: 'New Matter' });
  await newMatter.click();
  const create = page.getByRole('dialog', { name: 'Create New Matter' });
  await create.getByLabel('Matter Name').fill('Dock rates appeal');
  await create.getByLabel('Client Name').fill('Quay Holdings');
  await create.getByRole('option', { name: /Add 'Quay Holdings'/ }).click();
  await expect(create.getByRole('listbox')).toBeHidden();
  const lawyer = create.getByRole('combobox', { name: 'Responsible Attorney' });
  await lawyer.pressSequentially('Dana Dash');
  const add = create.getByRole('option', { name: /Add 'Dana Dash'/ });
  await expect(add).toBeVisible();
  await expect(create.getByText('No lawyers found. Type to add a new lawyer.')).toBeVisible();

  // The list stays clear of the dialog's buttons: the point at the middle of Create Matter is the button.
  const button = create.getByRole('button', { name: 'Create Matter' });
  const list = await create.getByRole('listbox').boundingBox();
  const box = await button.boundingBox();
  expect(list && box && list.y + list.height <= box.y).toBe(true);
  const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent, {
    x: box!.x + box!.width / 2,
    y: box!.y + box!.height / 2,
  });
  expect(hit).toBe('Create Matter');
  await shotThemes(page, 'matters-new-matter-add-row');

  await add.click();
  await expect(create.getByRole('listbox')).toBeHidden();
  await expect(lawyer).toHaveValue('Dana Dash');
  await expect(lawyer).toBeFocused();
  // Tab goes on to Cancel, and stays there.
  await page.keyboard.press('Tab');
  await expect(create.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await button.click();
  await expect(page.getByText('Matter created successfully!')).toBeVisible();
  await expect(create).toBeHidden();
  await expect(newMatter).toBeFocused();
});

test('a click on Create Matter while the suggestions are open creates the matter', async () => {
  await page.getByRole('button', { name: 'New Matter' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Matter' });
  await create.getByLabel('Matter Name').fill('Slipway licence');
  await create.getByLabel('Client Name').fill('Quay Holdings');
  await page.keyboard.press('Enter'); // commits the name and closes the list; nothing is submitted yet
  await expect(create.getByRole('listbox')).toBeHidden();
  await expect(create).toBeVisible();
  await create.getByLabel('Responsible Attorney').pressSequentially('Ezra New');
  await expect(create.getByRole('option', { name: /Add 'Ezra New'/ })).toBeVisible();
  await checkA11y(page, 'matters-new-matter-suggestions-open');
  await create.getByRole('button', { name: 'Create Matter' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole('row', { name: 'Open matter Slipway licence' })).toBeVisible();
});

test('closing a filled New Matter asks first; Keep editing keeps it, Discard drops it', async () => {
  const newMatter = page.getByRole('button', { name: 'New Matter' });
  await newMatter.click();
  const create = page.getByRole('dialog', { name: 'Create New Matter' });
  await create.getByLabel('Matter Name').fill('Half typed');
  await create.getByLabel('Matter Name').press('Escape');
  const ask = page.getByRole('dialog', { name: 'Discard this new matter?' });
  await expect(ask).toBeVisible();
  await checkA11y(page, 'matters-discard-new-matter');
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toBeHidden();
  await expect(create.getByLabel('Matter Name')).toHaveValue('Half typed');
  await create.getByRole('button', { name: 'Cancel' }).click();
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(create).toBeHidden();
  await expect(newMatter).toBeFocused();
  // An untouched form closes at once.
  await newMatter.click();
  await expect(create.getByLabel('Matter Name')).toHaveValue('');
  await create.getByRole('button', { name: 'Cancel' }).click();
  await expect(create).toBeHidden();
  await expect(ask).toBeHidden();
});

test('a matter opens as a page of its own, and its way back returns to the list with its filters', async () => {
  await page.goto('/matters?q=harbour');
  const row = page.getByRole('row', { name: 'Open matter Harbour lease' });
  await row.click();
  await expect(page).toHaveURL(/\/matters\/[0-9a-f-]{36}$/);
  const detail = page.getByRole('main');
  await expect(detail.getByRole('heading', { name: 'Harbour lease', level: 1 })).toBeVisible();
  await detail.getByRole('link', { name: 'Back to Matters' }).click();
  await expect(page).toHaveURL(/\/matters\?q=harbour$/);
  await expect(page.getByLabel('Search matters', { exact: true })).toHaveValue('harbour');
  // From the keyboard too; the browser's Back returns to the list.
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(detail.getByRole('heading', { name: 'Harbour lease', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(row).toBeVisible();
});

test('the client filter finds part of a name; a picked suggestion the whole name', async () => {
  await page.goto('/matters');
  const client = page.getByRole('combobox', { name: 'Client' });
  await client.pressSequentially('marlow');
  await expect(page).toHaveURL(/[?&]client=marlow(&|$)/);
  await expect(rows()).toHaveCount(3);
  await expect(page.getByText('Showing 1–3 of 3 matters')).toBeVisible();
  // The suggestion names the group in one of its spellings.
  await page.getByRole('option', { name: /^marlow estates/i }).click();
  await expect(client).toHaveValue(/^marlow estates$/i);
  await expect(page).toHaveURL(/[?&]clientExact=1/);
  await expect(rows()).toHaveCount(2);
  await expect(page.getByRole('row', { name: 'Open matter Mill probate' })).toBeHidden();
  await page.reload();
  await expect(rows()).toHaveCount(2);
  await page.getByRole('button', { name: 'Clear All' }).click();
  await expect(page).not.toHaveURL(/client/);
});

test('paging scrolls to the top of the list; a page beyond the last shows the last', async () => {
  const total = TOTAL + 2;
  await page.goto('/matters');
  await expect(page.getByText(`Showing 1–50 of ${total} matters`)).toBeVisible();
  const next = page.getByRole('button', { name: 'Next' });
  await next.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await next.click();
  await expect(page.getByText(`Showing 51–${total} of ${total} matters`)).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Matters' })
      .getByRole('columnheader', { name: /Matter/ })
      .first(),
  ).toBeInViewport();

  await page.goto('/matters?page=99');
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(page.getByText(`Showing 51–${total} of ${total} matters`)).toBeVisible();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
});

test('a matter that does not exist says so at once, asked once', async () => {
  const missing = crypto.randomUUID();
  let asked = 0;
  page.on('request', (r) => {
    if (r.url().includes(`/_api/matters/detail?matterId=${missing}`)) asked += 1;
  });
  const started = Date.now();
  await page.goto(`/matters/${missing}`);
  await expect(page.getByRole('main').getByText('Matter data not found.')).toBeVisible({ timeout: 3000 });
  expect(Date.now() - started).toBeLessThan(3000);
  await page.waitForTimeout(1500); // a retry would have been sent by now
  expect(asked).toBe(1);
});
