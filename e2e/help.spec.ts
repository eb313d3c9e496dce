import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { checkA11y, setUpEmailMfa, shotBothThemes, signInWithEmail } from './support/fixtures.js';

// The Help page: its sections and table of contents, anchors that land on their section (also when the address
// is opened directly), the server's version as the server reports it, at desktop and phone widths in both themes.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-help-setup-token-0123456789abcdef0123';
const ADMIN = { email: 'hana@help.test', name: 'Hana Help', password: 'help page passphrase', firm: 'Help & Partners' };
const SECTIONS = [
  'Signing in and MFA',
  'Recovery codes and a lost phone',
  'Legal hold',
  'The vault: what it does and what it cannot undo',
  'Retention',
  'Uploads and resume',
  'Versions and files with the same name',
  'Deleting and the recycle bin',
  'Guests and what they can do',
  'How an auditor verifies a vault certificate and the audit trail',
  'Keyboard shortcuts',
  "The server's version",
];

let server: RunningServer;
let root: string;
let page: Page;

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-help-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const versionShown = () => expect(page.getByTestId('server-version')).toHaveText(/^v\d+\.\d+\.\d+$/);

test('the Help page lists every section in its table of contents, each a real section with text', async () => {
  await page.goto('/help');
  await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible();
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  const toc = page.getByRole('navigation', { name: 'On this page' });
  await expect(toc.getByRole('link')).toHaveText(SECTIONS);
  for (const title of SECTIONS) {
    const section = page.getByRole('region', { name: title });
    await expect(section.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }
  // What the page says is what the product does: a same-name upload can become a new version; deletion goes to the bin.
  await expect(page.getByRole('region', { name: 'Versions and files with the same name' })).toContainText('keeps every version');
  await expect(page.getByRole('region', { name: 'Deleting and the recycle bin' })).toContainText('cannot be undone');
  await expect(page.getByRole('region', { name: 'Keyboard shortcuts' })).toContainText('Focus the search box');
  await expect(page.getByRole('region', { name: 'How an auditor verifies a vault certificate and the audit trail' })).toContainText(
    'npm run verify-certificate',
  );
});

test("the server's version is the one the server reports in its session answer", async () => {
  const reported = await page.evaluate(async () => {
    const res = await fetch('/_api/auth/session', { headers: { 'X-API-Version': 'v1.0.0' } });
    return ((await res.json()) as { apiVersion: { server: string } }).apiVersion.server;
  });
  await versionShown();
  await expect(page.getByTestId('server-version')).toHaveText(reported);
});

test('a table-of-contents link goes to its section and into the address; a direct address lands there too', async () => {
  await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Recovery codes and a lost phone' }).click();
  await expect(page).toHaveURL(/\/help#recovery-codes$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Recovery codes and a lost phone' })).toBeInViewport();

  await page.goto('/');
  await page.goto('/help#keyboard-shortcuts');
  await expect(page.getByRole('heading', { level: 2, name: 'Keyboard shortcuts' })).toBeInViewport();
  await checkA11y(page, 'help-anchor');
});

test('readable at 1440 and 390 px in light and dark, without sideways scrolling on a phone', async () => {
  await page.goto('/help');
  await shotBothThemes(page, 'help-1440', versionShown);
  await page.setViewportSize({ width: 390, height: 844 });
  await shotBothThemes(page, 'help-390', versionShown);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1440, height: 900 });
});
