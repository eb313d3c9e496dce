import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import {
  Authenticator,
  checkA11y,
  mailDir,
  passwordStep,
  setUpEmailMfa,
  shotThemes,
  signInWithEmail,
  waitForCode,
  waitForLink,
} from './support/fixtures.js';

// The Settings page's Profile, Organization, Security and Retention & Vault tabs, on a Strongroom of this test
// file's own: profile edit, password change, the switch from email to an authenticator with its recovery codes,
// the feature-flag panel with its system MFA prompt, the organization edit asking for a code once its flag is on,
// the retention policy and the vault configuration.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-settings-setup-token-0123456789abcdef';
const ADMIN = { email: 'sol@settings.test', name: 'Sol Settings', password: 'settings passphrase', firm: 'Settings & Sons' };
const NEW_PASSWORD = 'a brand new settings passphrase';

let server: RunningServer;
let root: string;
let page: Page;
let authenticator: Authenticator;
/** One of the recovery codes shown after the switch to the authenticator. */
let recoveryCode: string;

const tab = (name: string) => page.getByRole('tab', { name });
const card = (name: string) => page.getByRole('region', { name });
const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

/** The MFA prompt (a sensitive action's or the system one): a fresh authenticator code, then Verify. */
async function answerMfaPrompt(): Promise<void> {
  const prompt = page.getByRole('dialog').filter({ has: page.getByLabel('Verification Code') });
  await expect(prompt).toBeVisible();
  await prompt.getByLabel('Verification Code').fill(await authenticator.code());
  await prompt.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(prompt).toBeHidden();
}

async function flagSwitch(label: string): Promise<Locator> {
  const s = page.getByRole('switch', { name: label });
  await expect(s).toBeVisible();
  return s;
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-settings-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, acceptDownloads: true, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the admin signs in and opens Settings on the Profile tab', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(tab('Profile')).toHaveAttribute('aria-selected', 'true');
  const info = card('Personal Information');
  await expect(info.getByText(ADMIN.name)).toBeVisible();
  await expect(info.getByText(ADMIN.email)).toBeVisible();
  await expect(info.getByText('Not set')).toBeVisible();
  await expect(info.getByText('Admin', { exact: true })).toBeVisible();
  await expect(card('Security').getByTestId('mfa-status')).toContainText('Enabled');
  await expect(card('Security').getByTestId('mfa-status')).toContainText('Email');
  await shotThemes(page, 'settings-profile');
});

test('the profile is edited: a too-short name is refused, then name and phone are saved', async () => {
  const info = card('Personal Information');
  await info.getByRole('button', { name: 'Edit' }).click();
  await info.getByLabel('Full name').fill('S');
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(info.getByText('Full name must be at least 2 characters.')).toBeVisible();
  await checkA11y(page, 'settings-profile-edit-invalid');
  await info.getByLabel('Full name').fill('Sol Settingsworth');
  await info.getByLabel('Phone number').fill('+44 20 7946 0101');
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast('Profile updated successfully.')).toBeVisible();
  await expect(info.getByText('Sol Settingsworth')).toBeVisible();
  await expect(info.getByText('+44 20 7946 0101')).toBeVisible();
  // The top bar reads the session again.
  await page
    .getByRole('button', { name: /account menu|Sol Settingsworth/i })
    .first()
    .click();
  await expect(page.getByRole('menu').getByText('Sol Settingsworth')).toBeVisible();
  await page.keyboard.press('Escape');
});

test('the password is changed with the spec messages on the way', async () => {
  const form = card('Change Password');
  await form.getByLabel('Current password').fill(ADMIN.password);
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Confirm new password').fill('something else entirely');
  await form.getByRole('button', { name: 'Change Password' }).click();
  await expect(form.getByText("New passwords don't match.")).toBeVisible();
  await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change Password' }).click();
  await expect(toast('Password changed successfully.')).toBeVisible();
  await expect(form.getByLabel('Current password')).toHaveValue('');
  // Still signed in here.
  await page.reload();
  await expect(card('Personal Information')).toBeVisible();
});

test('the second factor moves from email to an authenticator: QR, an emailed code, the new code, recovery codes once', async () => {
  await card('Security').getByRole('button', { name: 'Manage' }).click();
  const manage = page.getByRole('dialog', { name: 'Manage Multi-Factor Authentication' });
  await expect(manage.getByRole('button', { name: /turn off|disable/i })).toHaveCount(0);
  await manage.getByRole('button', { name: /Switch to Authenticator App/ }).click();

  const flow = page.getByRole('dialog', { name: 'Switch to Authenticator App' });
  await expect(flow.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  authenticator = new Authenticator((await flow.getByTestId('totp-secret').textContent())!.trim());
  await shotThemes(page, 'settings-mfa-switch');
  const since = Date.now();
  await flow.getByRole('button', { name: 'Send code to my email' }).click();
  await flow.getByLabel('Code from your email').fill(await waitForCode(mailDir(), ADMIN.email, since));
  await flow.getByLabel('Code from the new authenticator app').fill(await authenticator.code());
  await flow.getByRole('button', { name: 'Verify & Switch' }).click();

  const codes = page.getByRole('dialog', { name: 'Recovery Codes' });
  await expect(codes.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  recoveryCode = (await codes.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').first().textContent())!.trim();
  await expect(toast('MFA with Authenticator App enabled!')).toBeVisible();
  const download = page.waitForEvent('download');
  await codes.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('strongroom-recovery-codes.txt');
  await shotThemes(page, 'settings-recovery-codes');
  // The dialog goes only once the user says the codes are saved: no Escape, no corner close before that.
  await expect(codes.getByRole('button', { name: 'Done' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(codes).toBeVisible();
  await codes.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await codes.getByRole('button', { name: 'Done' }).click();
  await expect(card('Security').getByTestId('mfa-status')).toContainText('Authenticator App');
  await expect(card('Security').getByText('10 unused codes left.', { exact: false })).toBeVisible();
});

test('the Organization tab shows Not set for an empty contact field; an edit asks for a code (MFA_ORGANIZATION_SETTINGS is on at first)', async () => {
  await tab('Organization').click();
  await expect(page).toHaveURL(/tab=organization/);
  const org = card('Organization');
  await expect(org.getByText(ADMIN.firm)).toBeVisible();
  // Setup fills the contact from the first admin; the phone is asked for nowhere yet.
  await expect(org.getByText('Not set').first()).toBeVisible();
  await shotThemes(page, 'settings-organization');
  await org.getByRole('button', { name: 'Edit' }).click();
  await org.getByLabel('Primary contact name').fill('Sol Settingsworth');
  await org.getByLabel('Primary contact email').fill('not-an-address');
  await org.getByRole('button', { name: 'Save Changes' }).click();
  await expect(org.getByText('Please enter a valid contact email.')).toBeVisible();
  await expect(org.getByText('Contact phone is required.')).toBeVisible();
  await checkA11y(page, 'settings-organization-invalid');
  await org.getByLabel('Primary contact email').fill('sol@settings.test');
  await org.getByLabel('Primary contact phone').fill('+44 20 7946 0101');
  await org.getByRole('button', { name: 'Save Changes' }).click();
  await answerMfaPrompt();
  await expect(toast('Organization updated successfully.')).toBeVisible();
  await expect(org.getByText('Not set')).toHaveCount(0);
  await expect(org.getByText('+44 20 7946 0101')).toBeVisible();
});

test('the Security tab lists the 6 flags; turning one off asks for a system MFA code', async () => {
  await tab('Security').click();
  const panel = card('MFA for Critical Operations');
  await expect(panel.getByRole('switch')).toHaveCount(6);
  await expect(await flagSwitch('Organization settings')).toBeChecked();
  await shotThemes(page, 'settings-security');
  await (await flagSwitch('Organization settings')).click();
  const bar = page.getByRole('region', { name: 'Unsaved changes' });
  await expect(bar).toContainText('Organization settings: On → Off');
  await expect(page.getByTestId('flag-MFA_ORGANIZATION_SETTINGS')).toHaveAttribute('data-state', 'changed');
  await shotThemes(page, 'settings-security-unsaved');
  await bar.getByRole('button', { name: 'Save Changes' }).click();
  await answerMfaPrompt();
  await expect(toast('Feature flags updated successfully!')).toBeVisible();
  await expect(bar).toBeHidden();
  await expect(await flagSwitch('Organization settings')).not.toBeChecked();
  // After a reload the server's value shows.
  await page.reload();
  await expect(await flagSwitch('Organization settings')).not.toBeChecked();
});

test('with MFA_ORGANIZATION_SETTINGS off, the organization edit needs no code', async () => {
  await tab('Organization').click();
  const org = card('Organization');
  await org.getByRole('button', { name: 'Edit' }).click();
  await org.getByLabel('Firm name').fill('Settings, Sons & Daughters');
  await org.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast('Organization updated successfully.')).toBeVisible();
  await expect(org.getByText('Settings, Sons & Daughters')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the Retention & Vault tab saves a new default with a code and shows the vault configuration', async () => {
  await tab('Retention & Vault').click();
  const years = page.getByLabel('Retention period (years)');
  await expect(years).toHaveValue('7');
  const vault = card('Vault Configuration');
  await expect(vault.getByText('Compliance')).toBeVisible();
  await expect(vault.getByText('Required')).toBeVisible();
  await expect(vault.getByTestId('write-once-status')).toHaveText(/Enforced|Not enforced/);
  await shotThemes(page, 'settings-retention');
  await years.fill('0');
  await page.getByRole('button', { name: 'Save Retention Policy' }).click();
  await expect(page.getByText('Retention must be at least 1 year.')).toBeVisible();
  await years.fill('10');
  await page.getByRole('button', { name: 'Save Retention Policy' }).click();
  // MFA_RETENTION_POLICIES is on.
  await answerMfaPrompt();
  await expect(toast('Retention policy updated.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Retention period (years)')).toHaveValue('10');
});

test('the Retention & Vault tab shows the signing key fingerprint the installation publishes, also 390 px wide', async () => {
  await tab('Retention & Vault').click();
  const published = (await (await page.request.get('/.well-known/strongroom-signing-keys')).json()) as {
    keys: { fingerprint: string; notAfter: string | null }[];
  };
  const current = published.keys.find((k) => k.notAfter === null);
  expect(current?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  const signing = card('Signing Key');
  const shown = signing.getByTestId('signing-key-fingerprint');
  await expect(shown).toHaveAttribute('data-fingerprint', current!.fingerprint);
  expect((await shown.textContent())!.replace(/\s/g, '')).toBe(current!.fingerprint);
  await expect(
    signing.getByText('Print this fingerprint in your engagement letters and hand it to your auditors', { exact: false }),
  ).toBeVisible();
  await expect(signing.getByRole('link', { name: /Published signing keys/ })).toHaveAttribute(
    'href',
    '/.well-known/strongroom-signing-keys',
  );
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signing.getByRole('button', { name: 'Copy' }).click();
  await expect(toast('Fingerprint copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(current!.fingerprint);
  await signing.scrollIntoViewIfNeeded();
  await shotThemes(page, 'settings-signing-key');

  // A phone: the hex wraps inside the card, nothing runs off the side.
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await signing.scrollIntoViewIfNeeded();
    for (const box of [await signing.boundingBox(), await shown.boundingBox()]) {
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    expect(await shown.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shotThemes(page, 'settings-signing-key-390');
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test('an API token is made with a code, shown once, works for a tool, and stops when revoked', async () => {
  await page.goto('/settings');
  const tokens = card('API Tokens');
  await expect(tokens.getByText('No API tokens')).toBeVisible();
  await tokens.getByRole('button', { name: 'New token' }).click();
  const form = page.getByRole('dialog', { name: 'New API token' });
  await form.getByLabel('Name').fill('Reception scanner');
  await form.getByLabel(/Upload files/).check();
  await form.getByRole('button', { name: 'Create token' }).click();
  await answerMfaPrompt();
  const shown = page.getByRole('dialog', { name: 'Copy your new token' });
  const token = (await shown.getByTestId('new-api-token').textContent())!.trim();
  expect(token).toMatch(/^srt_/);
  await shotThemes(page, 'settings-api-token-shown');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(token)).toHaveCount(0);
  const table = tokens.getByRole('table', { name: 'API tokens' });
  await expect(table.getByText('Reception scanner')).toBeVisible();
  await expect(table.getByText('Active')).toBeVisible();
  await checkA11y(page, 'settings-api-tokens');
  await shotThemes(page, 'settings-api-tokens');

  // A tool calls with the token alone (no cookies): it reads matters; settings stay closed to it.
  const call = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
  expect((await call('/_api/matters/list')).status).toBe(200);
  expect((await call('/_api/settings/users')).status).toBe(403);

  await table.getByRole('button', { name: 'Revoke Reception scanner' }).click();
  await expect(table.getByText('Revoked')).toBeVisible();
  expect((await call('/_api/matters/list')).status).toBe(401);

  await page.setViewportSize({ width: 390, height: 844 });
  await tokens.scrollIntoViewIfNeeded();
  await shotThemes(page, 'settings-api-tokens-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('a member who is not an administrator: Security disabled, organization and retention read-only', async ({ browser }) => {
  const member = { email: 'max@settings.test', name: 'Max Member', password: 'member passphrase here' };
  const headers = { Origin: server.url, 'x-api-version': 'v1.0.0' };
  const since = Date.now();
  // MFA_USER_MANAGEMENT is on: the invitation goes with a fresh code.
  const invited = await page.request.post('/_api/settings/users/invite', {
    headers,
    data: { email: member.email, role: 'user', mfaToken: await authenticator.code() },
  });
  expect(invited.status(), await invited.text()).toBe(200);
  const link = new URL(await waitForLink(mailDir(), member.email, since, '/accept-invitation'));
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const p = await context.newPage();
  try {
    const accepted = await p.request.post('/_api/auth/invitation-accept', {
      headers,
      data: { token: link.searchParams.get('token'), fullName: member.name, password: member.password },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    await signInWithEmail(p, member.email, member.password);
    await setUpEmailMfa(p, member.email);

    await p.goto('/settings?tab=security');
    await expect(p.getByRole('tab', { name: 'Security' })).toBeDisabled();
    await expect(p.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    await expect(p.getByRole('region', { name: 'Personal Information' }).getByText('User', { exact: true })).toBeVisible();

    await p.getByRole('tab', { name: 'Organization' }).click();
    await expect(p.getByRole('region', { name: 'Organization' }).getByText('Settings, Sons & Daughters')).toBeVisible();
    await expect(p.getByRole('region', { name: 'Organization' }).getByRole('button', { name: 'Edit' })).toHaveCount(0);

    await p.getByRole('tab', { name: 'Retention & Vault' }).click();
    await expect(p.getByLabel('Retention period (years)')).toHaveValue('10');
    await expect(p.getByLabel('Retention period (years)')).toHaveAttribute('readonly', '');
    await expect(p.getByText('Only administrators can change the retention policy.')).toBeVisible();
    await expect(p.getByRole('button', { name: 'Save Retention Policy' })).toHaveCount(0);
    await shotThemes(p, 'settings-member-retention');
  } finally {
    await context.close();
  }
});

test('a recovery code signs the admin in once, instead of the authenticator code', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const p = await context.newPage();
  try {
    await passwordStep(p, ADMIN.email, NEW_PASSWORD);
    await p.getByRole('button', { name: 'Use a recovery code' }).click();
    await p.getByLabel('Recovery code').fill(recoveryCode);
    await checkA11y(p, 'sign-in-recovery-code');
    await p.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(p.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();
    await p.goto('/settings');
    await expect(p.getByRole('region', { name: 'Security' }).getByText('9 unused codes left.', { exact: false })).toBeVisible();
    await p.context().clearCookies();

    // The same code a second time is refused.
    await passwordStep(p, ADMIN.email, NEW_PASSWORD);
    await p.getByRole('button', { name: 'Use a recovery code' }).click();
    await p.getByLabel('Recovery code').fill(recoveryCode);
    await p.getByRole('button', { name: 'Verify', exact: true }).click();
    // Refused with the server's text, on the field; the sign-in does not go through.
    await expect(p.getByRole('alert')).toContainText(/invalid/i);
    await expect(p.getByLabel('Recovery code')).toHaveAttribute('aria-invalid', 'true');
    await expect(p.getByRole('heading', { name: 'Verify your identity' })).toBeVisible();
  } finally {
    await context.close();
  }
});
