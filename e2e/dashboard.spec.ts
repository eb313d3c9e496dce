import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import {
  Authenticator,
  checkA11y,
  fillCode,
  mailDir,
  passwordStep,
  saveRecoveryCodes,
  setUpEmailMfa,
  shotBothThemes,
  shotThemes,
  signInWithEmail,
  waitForCode,
  waitForLink,
} from './support/fixtures.js';

// The dashboard on a Strongroom of its own: an administrator (authenticator, so the invite's step-up is a code),
// a user invited with the default permissions and a guest. Each sees the widgets their permissions allow.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-dashboard-setup-token-0123456789abcdef';
const ADMIN = { email: 'dana@dash.test', name: 'Dana Dash', password: 'dashboard passphrase', firm: 'Dash & Partners' };
const USER = { email: 'uma@dash.test', name: 'Uma User', password: 'user passphrase here' };
const GUEST = { email: 'gil@dash.test', name: 'Gil Guest', password: 'guest passphrase here' };

let server: RunningServer;
let root: string;
let page: Page;
let admin: Authenticator;
let file: string;
const links: Record<string, string> = {};

const widget = (p: Page, name: string) => p.getByRole('region', { name });
/** The dashboard's own header buttons (the top bar has an Invite User of its own). */
const main = (p: Page) => p.locator('#main-content');
const prompt = () => page.getByRole('dialog', { name: 'Verification required' });
const dashboardReady = (p: Page) => () =>
  expect(widget(p, 'Recent Activity').getByRole('list').or(widget(p, 'Recent Activity').getByText('No recent activity'))).toBeVisible();

async function join(browser: Browser, link: string, person: { name: string; password: string }): Promise<Page> {
  const p = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
  await p.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await p.getByLabel('Full Name').fill(person.name);
  await p.getByLabel('Password').fill(person.password);
  await p.getByRole('button', { name: 'Create Account and Join' }).click();
  await expect(p).toHaveURL(/\/login$/);
  return p;
}

/** Both themes at 1440 and at 390 pixels wide. */
async function shotsAtBothWidths(p: Page, name: string) {
  await shotBothThemes(p, `${name}-1440`, dashboardReady(p));
  await p.setViewportSize({ width: 390, height: 844 });
  await shotBothThemes(p, `${name}-390`, dashboardReady(p));
  await p.setViewportSize({ width: 1440, height: 900 });
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-dashboard-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  file = path.join(root, 'engagement-letter.pdf');
  fs.writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(2048)]));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator signs in and sees every widget, with their empty states', async () => {
  await passwordStep(page, ADMIN.email, ADMIN.password);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send Code' }).click();
  await fillCode(page, await waitForCode(mailDir(), ADMIN.email, since));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  admin = new Authenticator((await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, ''));
  await fillCode(page, await admin.code());
  await page.getByRole('button', { name: 'Verify & Continue' }).click();
  await saveRecoveryCodes(page);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  for (const name of ['Invite User', 'Upload Files', 'New Matter']) await expect(main(page).getByRole('button', { name })).toBeVisible();
  for (const name of ['Recent Matters', 'Recent Activity', 'Notifications', 'Vault Status', 'User Management', 'Storage Usage']) {
    await expect(widget(page, name)).toBeVisible();
  }
  await expect(widget(page, 'Recent Matters').getByText('No recent matters')).toBeVisible();
  await expect(widget(page, 'Recent Matters').getByRole('button', { name: 'Create First Matter' })).toBeVisible();
  await expect(widget(page, 'Recent Matters').getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/matters');
  await expect(widget(page, 'Notifications').getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/audit-logs');
  await expect(widget(page, 'Vault Status').getByRole('link', { name: 'View Vault' })).toHaveAttribute('href', '/vault');
  await expect(widget(page, 'User Management').getByRole('link', { name: 'Manage Users' })).toHaveAttribute('href', '/settings?tab=team');
  await expect(widget(page, 'Storage Usage').getByRole('link', { name: 'Details' })).toHaveAttribute('href', '/audit-logs');
  await expect(widget(page, 'Storage Usage').getByText('0 Bytes').first()).toBeVisible();
  await checkA11y(page, 'dashboard-admin-empty');
});

test('Create New Matter from the dashboard: the matter shows in Recent Matters', async () => {
  await main(page).getByRole('button', { name: 'New Matter' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Matter' });
  await create.getByLabel('Matter Name').fill('Harbor Lease Dispute');
  await create.getByLabel('Client Name').fill('Northwind Shipping');
  await create.getByLabel('Responsible Attorney').fill('Dana Dash');
  await page.keyboard.press('Escape'); // closes the suggestions, not the dialog
  await create.getByRole('button', { name: 'Create Matter' }).click();
  await expect(page.getByText('Matter created successfully!')).toBeVisible();
  await expect(create).toBeHidden();
  await expect(widget(page, 'Recent Matters').getByRole('link', { name: /Harbor Lease Dispute/ })).toBeVisible();
  // Recent Activity says it in words, with the action's code beside it.
  const activity = widget(page, 'Recent Activity');
  await expect(activity.getByText(/^Dana Dash created the matter “Harbor Lease Dispute”/)).toBeVisible();
  await expect(activity.getByText('CREATE_MATTER').first()).toBeVisible();
});

test('Upload Files: Select Matter asks for a matter, then the upload dialog stores the file', async () => {
  await main(page).getByRole('button', { name: 'Upload Files' }).click();
  const select = page.getByRole('dialog', { name: 'Select Matter' });
  await select.getByRole('button', { name: 'Continue' }).click();
  await expect(select.getByRole('alert')).toHaveText('Please select a matter.');
  await select.getByLabel('Search matters...').fill('Harbor');
  await select.getByRole('radio', { name: /Harbor Lease Dispute/ }).check();
  await shotThemes(page, 'dashboard-select-matter');
  await select.getByRole('button', { name: 'Continue' }).click();

  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await expect(upload).toBeVisible();
  await upload.getByLabel('Choose files to upload').setInputFiles(file);
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('All 1 files uploaded successfully!')).toBeVisible();
  await expect(upload).toBeHidden({ timeout: 5_000 });
  // The stored bytes are the file's exact size.
  await expect(widget(page, 'Storage Usage').getByText('2.01 KB').first()).toBeVisible();
});

test('Invite User: the step-up code, the server message as the toast, Pending Invites counts it', async () => {
  for (const person of [USER, GUEST]) {
    await main(page).getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite New Team Member' });
    await dialog.getByLabel('Email').fill(person.email);
    if (person === GUEST) {
      await dialog.getByRole('combobox').click();
      await page.getByRole('option', { name: 'Guest' }).click();
    }
    const since = Date.now();
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(prompt()).toBeVisible();
    await fillCode(page, await admin.code());
    await prompt().getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByText(`Invitation sent to ${person.email}.`)).toBeVisible();
    links[person.email] = await waitForLink(mailDir(), person.email, since, '/accept-invitation');
  }
  const users = widget(page, 'User Management');
  await expect(users.getByRole('definition').filter({ hasText: /^2$/ })).toBeVisible();
  await shotsAtBothWidths(page, 'dashboard-admin');
});

test('the archivable logs figure is read only when asked for, behind a code', async () => {
  const storage = widget(page, 'Storage Usage');
  await storage.getByRole('button', { name: 'Show archivable logs' }).click();
  // The statistics' code prompt, unless a token of their class is still held from an earlier code.
  const confirm = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(confirm.or(storage.getByTestId('archivable-logs'))).toBeVisible();
  if (await confirm.isVisible()) {
    await fillCode(page, await admin.code());
    await confirm.getByRole('button', { name: 'Verify' }).click();
  }
  await expect(storage.getByTestId('archivable-logs')).toHaveText('0');
});

test('a user sees matters, activity and the vault status, but no user or storage widgets', async ({ browser }) => {
  const p = await join(browser, links[USER.email]!, USER);
  await signInWithEmail(p, USER.email, USER.password);
  await setUpEmailMfa(p, USER.email);
  await p.goto('/');
  await expect(p.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(widget(p, 'Recent Matters').getByRole('link', { name: /Harbor Lease Dispute/ })).toBeVisible();
  await expect(widget(p, 'Vault Status')).toBeVisible();
  await expect(widget(p, 'Notifications')).toBeVisible();
  await expect(widget(p, 'User Management')).toHaveCount(0);
  await expect(widget(p, 'Storage Usage')).toHaveCount(0);
  await expect(main(p).getByRole('button', { name: 'Invite User' })).toHaveCount(0);
  await expect(main(p).getByRole('button', { name: 'Upload Files' })).toBeVisible();
  await shotsAtBothWidths(p, 'dashboard-user');
  await p.context().close();
});

test('a guest has no dashboard: the shared matters open instead', async ({ browser }) => {
  const p = await join(browser, links[GUEST.email]!, GUEST);
  await signInWithEmail(p, GUEST.email, GUEST.password);
  await setUpEmailMfa(p, GUEST.email);
  await p.goto('/');
  await expect(p).toHaveURL(/\/matters$/);
  await expect(p.getByRole('heading', { name: 'Dashboard', level: 1 })).toHaveCount(0);
  await expect(main(p).getByRole('button', { name: 'Upload Files' })).toHaveCount(0);
  await checkA11y(p, 'dashboard-guest-redirect');
  await p.context().close();
});
