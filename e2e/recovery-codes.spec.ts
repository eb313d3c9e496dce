import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { Authenticator, fillCode, passwordStep, shotThemes, signInWithEmail } from './support/fixtures.js';

// Enrolling an authenticator on the MFA setup wall shows the ten recovery codes once; the user goes on only after
// saying they saved them, and one of those codes later signs them in instead of the phone.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-recovery-setup-token-0123456789abcdef';
const ADMIN = { email: 'rhea@recovery.test', name: 'Rhea Recovery', password: 'recovery passphrase', firm: 'Recovery & Co' };

let server: RunningServer;
let root: string;
let page: Page;
let codes: string[] = [];

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-recovery-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, acceptDownloads: true, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the wall enrols an authenticator, shows the ten codes once, and goes on only once they are saved', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  const authenticator = new Authenticator((await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, ''));
  await fillCode(page, await authenticator.code());
  await page.getByRole('button', { name: 'Verify & Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Save Your Recovery Codes' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  codes = (await items.allTextContents()).map((c) => c.trim());
  for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);

  // Not before 'I have saved these codes': Continue is disabled and the app does not show.
  const go = page.getByRole('button', { name: 'Continue' });
  await expect(go).toBeDisabled();
  // A refetch of the session (a return to the tab) does not take the codes away.
  await page.evaluate(() => {
    window.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
  });
  await expect(items).toHaveCount(10);
  await expect(page.getByRole('navigation', { name: /main/i })).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('strongroom-recovery-codes.txt');
  const text = fs.readFileSync((await file.path())!, 'utf8');
  for (const code of codes) expect(text).toContain(code);

  await shotThemes(page, 'mfa-wall-recovery-codes');
  await page.setViewportSize({ width: 390, height: 844 });
  await shotThemes(page, 'mfa-wall-recovery-codes-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await expect(go).toBeEnabled();
  await go.click();
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();
  // Shown once: a reload never brings them back.
  await page.reload();
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);
});

test('after signing out, one of those codes signs the user in instead of the authenticator, once', async () => {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await passwordStep(page, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[2]!);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByRole('region', { name: 'Security' }).getByText('9 unused codes left.', { exact: false })).toBeVisible();
});
