import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, mailDir, setUpEmailMfa, shotThemes, signInWithEmail, waitForCode } from './support/fixtures.js';

// The top bar's bell: the unread count on the button, the panel of notifications in words, following one to its
// matter (which marks it read), and Mark all as read; at 1440 and 390 px, in both themes, on a Strongroom of this
// test file's own.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-notifications-setup-token-0123456789abcdef';
const ADMIN = { email: 'nia@lantern.test', name: 'Nia Bell', password: 'lantern passphrase', firm: 'Lantern Chambers' };

let server: RunningServer;
let root: string;
let page: Page;
let matterId = '';
let userId = 0;

const api = async (method: 'get' | 'post', url: string, data?: unknown) => {
  const res = await page.request[method](url, { headers: { Origin: server.url, 'x-api-version': 'v1.0.0' }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};

/** A fresh emailed code, for the legal hold calls (vault operations ask for one). */
async function freshCode(): Promise<string> {
  const since = Date.now();
  const headers = { Origin: server.url, 'x-api-version': 'v1.0.0' };
  let res = await page.request.post('/_api/auth/mfa-email', { headers, data: { userId } });
  // Codes are sent at most once in a while: wait as long as the server says, then ask again.
  if (res.status() === 429) {
    await page.waitForTimeout(((await res.json()).details.retryAfterSeconds + 1) * 1000);
    res = await page.request.post('/_api/auth/mfa-email', { headers, data: { userId } });
  }
  expect(res.status(), await res.text()).toBe(200);
  return waitForCode(mailDir(), ADMIN.email, since);
}

const unreadCount = async () => ((await api('get', '/_api/notifications?limit=1')) as { unreadCount: number }).unreadCount;
const bell = () => page.getByRole('button', { name: /^Notifications/ });
const panel = () => page.getByRole('dialog', { name: 'Notifications' });
const words = (n: number) => (n === 1 ? '1 unread notification' : `${n} unread notifications`);

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-notifications-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('a legal hold placed on a matter shows on the bell with the unread count', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  const created = await api('post', '/_api/matters/create', {
    matterName: 'Harbour Acquisition',
    clientName: 'Quayside Holdings',
    responsibleAttorney: 'Nia Bell',
  });
  matterId = created.matter.id;
  userId = (await api('get', '/_api/auth/session')).user.id;
  await api('post', '/_api/matters/legal-hold', { matterId, action: 'apply', reason: 'Pending litigation', mfaToken: await freshCode() });

  await page.goto('/');
  const n = await unreadCount();
  expect(n).toBeGreaterThan(0);
  await expect(bell()).toHaveAccessibleName(`Notifications, ${words(n)}`);
  await expect(page.getByTestId('notifications-badge')).toHaveText(String(n));

  await bell().click();
  await expect(panel()).toBeVisible();
  const hold = panel().getByRole('link', { name: /placed “Harbour Acquisition” under legal hold/ });
  await expect(hold).toBeVisible();
  await expect(hold).toContainText('Legal hold');
  await expect(hold).toContainText('Unread');
  await shotThemes(page, 'notifications-panel');
});

test('following a notification opens its matter and marks it read everywhere', async () => {
  const before = await unreadCount();
  await panel()
    .getByRole('link', { name: /under legal hold/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/matters/${matterId}`));
  await expect(panel()).toBeHidden();
  await expect.poll(unreadCount).toBe(before - 1);
  // The matter's detail opens over the matters page; closed, the bell is reachable again.
  await page.keyboard.press('Escape');
  const after = before - 1;
  await expect(bell()).toHaveAccessibleName(after > 0 ? `Notifications, ${words(after)}` : 'Notifications');
});

test('Mark all as read clears the count; the panel keeps the notifications, read', async () => {
  await page.goto('/');
  await bell().click();
  await panel().getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell()).toHaveAccessibleName('Notifications');
  await expect(page.getByTestId('notifications-badge')).toHaveCount(0);
  await expect(panel().getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await expect(panel().getByText('Unread')).toHaveCount(0);
  await expect(panel().getByRole('link', { name: /under legal hold/ })).toBeVisible();
  await checkA11y(page, 'notifications-all-read');
  expect(await unreadCount()).toBe(0);
  await page.keyboard.press('Escape');
});

test('a vaulted matter leads to its entry on the vault page', async () => {
  const created = await api('post', '/_api/matters/create', {
    matterName: 'Estate of Wren Hollis',
    clientName: 'Hollis Family Trust',
    responsibleAttorney: 'Nia Bell',
  });
  const vaultedId = created.matter.id as string;
  await api('post', '/_api/vault/start', { matterId: vaultedId, retentionYears: 7, mfaToken: await freshCode() });
  await page.goto('/');
  await expect(bell()).toHaveAccessibleName(/^Notifications, \d+ unread notifications?$/);
  await bell().click();
  const vaulted = panel().getByRole('link', { name: /vaulted the matter “Estate of Wren Hollis” for 7 years/ });
  await expect(vaulted).toContainText('Unread');
  await vaulted.click();
  await expect(page).toHaveURL(new RegExp(`/vault\\?matter=${vaultedId}`));
  await expect(page.getByRole('dialog', { name: 'Estate of Wren Hollis' })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('a sign-in security change leads to its row on the Audit Logs page, marked', async () => {
  await page.goto('/');
  await bell().click();
  const security = panel()
    .getByRole('link', { name: /turned on sign-in codes by email|finished setting up two-factor sign-in/ })
    .first();
  await expect(security).toContainText('Sign-in security');
  await security.click();
  await expect(page).toHaveURL(/\/audit-logs\?entry=\d+&action=MFA_\w+&day=\d{4}-\d{2}-\d{2}$/);
  const entry = new URL(page.url()).searchParams.get('entry');
  const row = page.locator(`[data-testid="audit-row"][data-log-id="${entry}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('aria-current', 'true');
  await shotThemes(page, 'notifications-audit-entry');
});

test('on a phone the panel fits the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  // Vaulting's later notices may have come in since the count was cleared; what matters here is the fit.
  await expect(bell()).toHaveAccessibleName(/^Notifications/);
  await bell().click();
  await expect(panel().getByRole('link', { name: /placed “Harbour Acquisition” under legal hold/ })).toBeVisible();
  const box = await panel().boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await shotThemes(page, 'notifications-panel-390');
});
