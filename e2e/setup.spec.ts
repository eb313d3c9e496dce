import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from './support/server.js';
import { shotBothThemes } from './support/fixtures.js';

// A second, empty Strongroom: no organization yet, so /setup admits the first administrator.
let server: RunningServer;
let root: string;
const SETUP_TOKEN = 'e2e-first-run-setup-token-0123456789';

test.beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-setup-'));
  const port = String(3900 + Math.floor(Math.random() * 90));
  server = await startServer({
    DATA_DIR: root,
    PORT: port,
    APP_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: process.env.E2E_SMTP_URL!,
    SETUP_TOKEN,
  });
});
test.afterAll(async () => {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the first administrator sets up the firm at /setup', async ({ page }) => {
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: /set up/i }).click();
  await expect(page).toHaveURL(/\/setup$/);
  await shotBothThemes(page, 'setup', () => expect(page.getByLabel('Setup token')).toBeVisible());
  await page.getByLabel('Setup token').fill('wrong token');
  await page.getByLabel('Firm name').fill('Beacon & Partners');
  await page.getByLabel('Your full name').fill('Bea Beacon');
  await page.getByLabel('Email').fill('bea@beacon.test');
  await page.getByLabel('Password').fill('beacon passphrase');
  await page.getByRole('button', { name: 'Set Up Strongroom' }).click();
  await expect(page.getByText('The setup token is not valid.')).toBeVisible();
  await page.getByLabel('Setup token').fill(SETUP_TOKEN);
  await page.getByRole('button', { name: 'Set Up Strongroom' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`${server.url}/setup`);
  await expect(page.getByText('Strongroom is already set up. Sign in instead.')).toBeVisible();
});
