import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { Authenticator, expectTableFits, fillCode, saveRecoveryCodes, shotThemes, signInWithEmail } from './support/fixtures.js';
import { startFirmServer, type RunningServer } from './support/server.js';

// The lists outside the matter workspace on a Strongroom of their own: at laptop widths the matters and vault
// tables keep their header row in view while the page scrolls and offer a compact row density, remembered per
// user; on a phone (390 x 844) the matters list is cards with its filters behind a Filters button, and the vault,
// audit logs, dashboard and every Settings tab fit the screen without widening the page.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-layouts-setup-token-0123456789abcdef';
const ADMIN = { email: 'lena@layouts.test', name: 'Lena Layout', password: 'layouts passphrase', firm: 'Layout & Co' };
const VAULTED = { name: 'Harbour Lease Dispute', client: 'Harbour Holdings' };
const MATTERS = 36;
const PHONE = { width: 390, height: 844 };

let root: string;
let server: RunningServer;
let page: Page;
let authenticator: Authenticator;
let vaultedId = '';

async function call(url: string, body: object) {
  const r = await page.request.post(url, { data: body, headers: { Origin: server.url } });
  expect(r.status(), await r.text()).toBeLessThan(300);
  return r.json();
}

/** Nothing on the page is wider than the phone: the document never scrolls sideways. */
async function expectFitsPhone(name: string) {
  const { width, wide } = await page.evaluate((max) => {
    // The elements reaching past the screen's right edge, named for the failure message.
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > max + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 80)}`);
    return { width: document.documentElement.scrollWidth, wide };
  }, PHONE.width);
  expect(width, `${name} widens the page: ${wide.join(' | ')}`).toBeLessThanOrEqual(PHONE.width);
}

/** How far below the top of the window an element's top edge is. */
const topOf = (l: Locator) => l.evaluate((el) => el.getBoundingClientRect().top);
const heightOf = (l: Locator) => l.evaluate((el) => el.getBoundingClientRect().height);

test.beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-layouts-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator signs in with an authenticator and the firm has matters, one vaulted', async ({ browser }) => {
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  authenticator = new Authenticator((await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, ''));
  await fillCode(page, await authenticator.code());
  await page.getByRole('button', { name: 'Verify & Continue' }).click();
  await saveRecoveryCodes(page);
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();

  for (let i = 1; i <= MATTERS; i++) {
    await call('/_api/matters/create', {
      matterName: `Layout Matter ${String(i).padStart(2, '0')} with a rather long name for a narrow screen`,
      clientName: `Client ${i} Holdings International Limited`,
      responsibleAttorney: ADMIN.name,
    });
  }
  const vaulted = await call('/_api/matters/create', {
    matterName: VAULTED.name,
    clientName: VAULTED.client,
    responsibleAttorney: ADMIN.name,
  });
  vaultedId = vaulted.matter.id;
  await call('/_api/vault/start', { matterId: vaultedId, retentionYears: 7, mfaToken: await authenticator.code() });
});

test('at 1440 and 1280 px the matters header row stays in view while the page scrolls', async () => {
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/matters');
    const table = page.getByRole('table', { name: 'Matters' });
    await expect(table.getByRole('row', { name: /Open matter Layout Matter/ }).first()).toBeVisible();
    const header = table.locator('thead');
    await page.mouse.wheel(0, 1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    // Stuck just under the 64 px top bar, in view, with rows scrolled beneath it.
    await expect.poll(() => topOf(header)).toBe(64);
    await expect(header.getByRole('columnheader', { name: 'Matter' })).toBeInViewport();
    await shotThemes(page, `layouts-matters-sticky-${width}`);
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('compact rows are chosen once and remembered for the user, on the matters and vault tables', async () => {
  await page.goto('/matters');
  const table = page.getByRole('table', { name: 'Matters' });
  const row = table.getByRole('row', { name: /Open matter Layout Matter/ }).first();
  await expect(row).toBeVisible();
  const density = page.getByRole('group', { name: 'Row density' });
  await expect(density.getByRole('button', { name: 'Comfortable' })).toHaveAttribute('aria-pressed', 'true');
  const comfortable = await heightOf(row);
  await density.getByRole('button', { name: 'Compact' }).click();
  await expect(density.getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => heightOf(row)).toBeLessThan(comfortable - 8);
  await expectTableFits(page, table, 'layouts-matters-compact');

  // A reload, and the vault list: the same choice.
  await page.reload();
  await expect(page.getByRole('group', { name: 'Row density' }).getByRole('button', { name: 'Compact' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.goto('/vault');
  const vault = page.getByRole('table', { name: 'Vaulted matters' });
  await expect(vault.getByRole('row').filter({ hasText: VAULTED.name })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Row density' }).getByRole('button', { name: 'Compact' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(vault.locator('thead')).toHaveCSS('position', 'sticky');
  await expectTableFits(page, vault, 'layouts-vault-compact');

  // Back to comfortable for the phone screens.
  await page.getByRole('group', { name: 'Row density' }).getByRole('button', { name: 'Comfortable' }).click();
  await expect(page.getByRole('group', { name: 'Row density' }).getByRole('button', { name: 'Comfortable' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('on a phone the matters list is cards, and the filters open from a Filters button', async () => {
  await page.setViewportSize(PHONE);
  await page.goto('/matters');
  const cards = page.getByRole('list', { name: 'Matters' });
  await expect(cards.getByRole('button', { name: /Open matter Layout Matter/ }).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Matters' })).toHaveCount(0);
  // The search stays in sight; the other filters wait behind the button.
  await expect(page.getByRole('searchbox', { name: 'Search matters' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Status' })).toBeHidden();
  const filters = page.getByRole('button', { name: 'Filters', exact: true });
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await expectFitsPhone('matters cards');
  await shotThemes(page, 'layouts-phone-matters');

  await filters.click();
  await expect(filters).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Vaulted' }).click();
  await expect(page).toHaveURL(/status=Vaulted/);
  await expect(page.getByRole('button', { name: 'Filters 1 active' })).toBeVisible();
  const card = cards.getByRole('button', { name: `Open matter ${VAULTED.name}` });
  await expect(card).toBeVisible();
  await expect(cards.getByRole('button')).toHaveCount(1);
  await expect(card).toContainText(VAULTED.client);
  await expect(card).toContainText('Vaulted');
  await expectFitsPhone('matters filters');
  await shotThemes(page, 'layouts-phone-matters-filters');

  // The whole card opens the matter, as a row does.
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/matters/${vaultedId}`));
});

test('on a phone the vault list and its sheet fit', async () => {
  await page.setViewportSize(PHONE);
  await page.goto('/vault');
  // Cards, with View Details in reach without scrolling sideways.
  const cards = page.getByRole('list', { name: 'Vaulted matters' });
  const view = cards.getByRole('button', { name: `View details of ${VAULTED.name}` });
  await expect(view).toBeInViewport();
  await expect(page.getByRole('table', { name: 'Vaulted matters' })).toHaveCount(0);
  await expect(cards.getByRole('listitem').filter({ hasText: VAULTED.name })).toContainText(VAULTED.client);
  await expectFitsPhone('vault list');
  await shotThemes(page, 'layouts-phone-vault');
  await view.click();
  const sheet = page.getByRole('dialog');
  await expect(sheet.getByRole('heading', { name: VAULTED.name })).toBeVisible();
  await expectFitsPhone('vault sheet');
  const box = await sheet.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  await shotThemes(page, 'layouts-phone-vault-sheet');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
});

test('on a phone the audit logs and the dashboard fit', async () => {
  await page.setViewportSize(PHONE);
  await page.goto('/audit-logs');
  await expect(page.getByRole('heading', { name: 'Audit Logs' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Audit logs' }).getByRole('row').nth(1)).toBeVisible();
  await expectFitsPhone('audit logs');
  await shotThemes(page, 'layouts-phone-audit-logs');

  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Recent Activity' })).toBeVisible();
  await expectFitsPhone('dashboard');
  await shotThemes(page, 'layouts-phone-dashboard');
});

test('on a phone every Settings tab fits, its tabs scrolling in their own strip', async () => {
  await page.setViewportSize(PHONE);
  await page.goto('/settings');
  const tabs = page.getByRole('tablist', { name: 'Settings sections' });
  await expect(tabs).toBeVisible();
  const names = await tabs.getByRole('tab').allInnerTexts();
  expect(names.length).toBeGreaterThanOrEqual(4);
  for (const name of names) {
    const tab = tabs.getByRole('tab', { name: name.trim() });
    await tab.scrollIntoViewIfNeeded();
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await expectFitsPhone(`settings ${name.trim()}`);
    await shotThemes(
      page,
      `layouts-phone-settings-${name
        .trim()
        .toLowerCase()
        .replace(/[^a-z]+/g, '-')}`,
    );
  }
});
