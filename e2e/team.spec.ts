import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import {
  Authenticator,
  checkA11y,
  fillCode,
  mailDir,
  passwordStep,
  setUpEmailMfa,
  shotThemes,
  signInWithEmail,
  waitForCode,
  waitForLink,
  saveRecoveryCodes,
} from './support/fixtures.js';

// Team administration, as an administrator drives it: the Team & Permissions tab, inviting, the Manage drawer
// (role change with its reason, permissions, deactivation and reactivation, Reset MFA), the Edit Conflict
// dialog when someone else saves first, the last administrator kept, and the MFA prompt that user management
// asks for (MFA_USER_MANAGEMENT is on by default). On a Strongroom of this test file's own.
// Each save may wait for the next authenticator step (a code is accepted once), so a test takes longer than most.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const SETUP_TOKEN = 'e2e-team-setup-token-0123456789abcdef01234';
const ADMIN = { email: 'tess@team.test', name: 'Tess Admin', password: 'team passphrase here', firm: 'Team & Partners' };
const COLE = { email: 'cole@team.test', name: 'Cole Colleague', password: 'colleague passphrase' };
const GUS = { email: 'gus@team.test', name: 'Gus Guest', password: 'guest passphrase here' };

let server: RunningServer;
let root: string;
let page: Page;
let admin: Authenticator;
let colePage: Page;

const headers = () => ({ Origin: server.url, 'x-api-version': 'v1.0.0' });
const post = (url: string, data: unknown) => page.request.post(url, { headers: headers(), data });
const team = async () => {
  const res = await page.request.get('/_api/settings/users', { headers: headers() });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { users: Array<{ id: string; email: string; version: number; status: string; role: string }> };
};
const memberOf = async (email: string) => (await team()).users.find((u) => u.email === email)!;

const tab = () => page.getByRole('tabpanel', { name: 'Team & Permissions' });
const table = () => tab().getByRole('table', { name: 'Team & Permissions' });
const row = (name: string) => table().getByRole('row').filter({ hasText: name });
const drawer = (name: string) => page.getByRole('dialog', { name });
const prompt = () => page.getByRole('dialog', { name: 'Verification required' });
const toast = (text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text });

/** Answers the MFA prompt with a fresh authenticator code when it opens before `done` shows. */
async function throughMfa(done: Locator): Promise<void> {
  await expect(prompt().or(done).first()).toBeVisible();
  if (await prompt().isVisible()) {
    await fillCode(page, await admin.code());
    await prompt().getByRole('button', { name: 'Verify', exact: true }).click();
  }
  await expect(done.first()).toBeVisible();
}

/** A fresh load of the tab, so that no toast of an earlier save is taken for the next one's. */
async function openTeamTab(): Promise<void> {
  await page.goto('/settings?tab=team');
  await expect(row(ADMIN.name)).toBeVisible();
}

async function openDrawer(name: string): Promise<Locator> {
  await row(name)
    .getByRole('button', { name: `Manage ${name}` })
    .click();
  const d = drawer(name);
  await expect(d.getByRole('switch', { name: 'Upload', exact: true })).toBeVisible();
  return d;
}

async function invite(email: string, role: 'User' | 'Guest'): Promise<string> {
  await tab().getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite New Team Member' });
  await dialog.getByLabel('Email').fill(email);
  if (role === 'Guest') {
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Guest' }).click();
    await expect(dialog.getByText('Until a matter is shared, they see nothing.')).toBeVisible();
    await shotThemes(page, 'team-invite-guest');
  }
  const since = Date.now();
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await throughMfa(toast(`Invitation sent to ${email}.`));
  return waitForLink(mailDir(), email, since, '/accept-invitation');
}

async function join(browser: Browser, link: string, person: { name: string; password: string }): Promise<Page> {
  const p = await (await browser.newContext({ baseURL: server.url })).newPage();
  await p.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await p.getByLabel('Full Name').fill(person.name);
  await p.getByLabel('Password').fill(person.password);
  await p.getByRole('button', { name: 'Create Account and Join' }).click();
  await expect(p).toHaveURL(/\/login$/);
  return p;
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-team-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await colePage?.context().close();
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator signs in with an authenticator and opens the Team & Permissions tab', async () => {
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
  await expect(page.getByText('MFA with Authenticator App enabled!')).toBeVisible();

  await openTeamTab();
  await expect(row(ADMIN.name)).toContainText(ADMIN.email);
  await expect(row(ADMIN.name)).toContainText('Administrator');
  await expect(row(ADMIN.name)).toContainText('Full Access');
  await shotThemes(page, 'team-tab');
});

test('invite a colleague and a guest (with the MFA prompt); an address already invited is refused in the dialog', async ({ browser }) => {
  const coleLink = await invite(COLE.email, 'User');
  await expect(tab().getByText(COLE.email, { exact: true })).toBeVisible();
  await expect(tab().getByRole('button', { name: `Resend invitation to ${COLE.email}` })).toBeVisible();

  // The same address again: refused before any code is asked for, in the invite dialog.
  await tab().getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite New Team Member' });
  await dialog.getByLabel('Email').fill(COLE.email);
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(dialog.getByRole('alert')).toContainText('An invitation to this address is already pending.');
  await expect(prompt()).toHaveCount(0);
  await checkA11y(page, 'team-invite-already-invited');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const gusLink = await invite(GUS.email, 'Guest');
  await join(browser, gusLink, GUS).then((p) => p.context().close());

  colePage = await join(browser, coleLink, COLE);
  await signInWithEmail(colePage, COLE.email, COLE.password);
  await setUpEmailMfa(colePage, COLE.email);

  await page.reload();
  await expect(row(COLE.name)).toContainText('Custom');
  await expect(row(GUS.name)).toContainText('Guest');
  await expect(tab().getByRole('button', { name: `Resend invitation to ${COLE.email}` })).toHaveCount(0);
});

test('a role change asks for its reason, resets the switches, and is undone from the toast', async () => {
  await openTeamTab();
  const d = await openDrawer(COLE.name);
  await expect(d.getByRole('switch', { name: 'Account Status', exact: true })).toBeChecked();
  await expect(d.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  await shotThemes(page, 'team-manage-drawer');

  await d.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Guest' }).click();
  const ask = page.getByRole('dialog', { name: `Change role to Guest for ${COLE.name}?` });
  await ask.getByLabel('Reason').fill('short');
  await ask.getByRole('button', { name: 'Change Role' }).click();
  await expect(ask.getByText('Reason must be at least 10 characters long.')).toBeVisible();
  await shotThemes(page, 'team-role-change');
  await ask.getByLabel('Reason').fill('Matter work finished; read-only from now on');
  await ask.getByRole('button', { name: 'Change Role' }).click();
  await expect(ask).toBeHidden();
  await expect(d.getByRole('switch', { name: 'Upload', exact: true })).not.toBeChecked();
  await expect(d.getByText('Unsaved changes')).toBeVisible();

  await d.getByRole('button', { name: 'Save Changes' }).click();
  await throughMfa(toast(`Successfully updated ${COLE.name}`));
  await expect(row(COLE.name)).toContainText('Guest');
  await toast(`Successfully updated ${COLE.name}`).getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Undo operation successful.')).toBeVisible();
  await expect(row(COLE.name)).toContainText('User');
});

test('a permission switch is saved with the MFA prompt', async () => {
  await openTeamTab();
  const d = await openDrawer(COLE.name);
  await expect(d.getByRole('switch', { name: 'Delete', exact: true })).not.toBeChecked();
  await d.getByRole('switch', { name: 'Delete', exact: true }).click();
  await d.getByRole('button', { name: 'Save Changes' }).click();
  await throughMfa(toast(`Successfully updated ${COLE.name}`));
  const d2 = await openDrawer(COLE.name);
  await expect(d2.getByRole('switch', { name: 'Delete', exact: true })).toBeChecked();
  await d2.getByRole('button', { name: 'Cancel' }).click();
  await expect(d2).toBeHidden();
});

test('someone else saves first: the Edit Conflict dialog says who, and the form is refreshed', async () => {
  await openTeamTab();
  const d = await openDrawer(COLE.name);
  await d.getByRole('switch', { name: 'Rename', exact: true }).click();
  // Meanwhile the same user is changed through the API.
  const cole = await memberOf(COLE.email);
  const res = await post('/_api/settings/users/permissions', {
    userId: cole.id,
    permissions: { canVault: true },
    version: cole.version,
    mfaToken: await admin.code(),
  });
  expect(res.status(), await res.text()).toBe(200);

  await d.getByRole('button', { name: 'Save Changes' }).click();
  const conflict = page.getByRole('dialog', { name: 'Edit Conflict' });
  await throughMfa(conflict);
  await expect(conflict).toContainText("The user's details were updated by someone else while you were making changes.");
  await expect(conflict).toContainText(ADMIN.name);
  await shotThemes(page, 'team-edit-conflict');
  await conflict.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Conflict resolved. You can now make changes again.')).toBeVisible();
  await expect(d.getByRole('switch', { name: 'Vault', exact: true })).toBeChecked();
  await expect(d.getByRole('switch', { name: 'Rename', exact: true })).not.toBeChecked();
  await d.getByRole('button', { name: 'Cancel' }).click();
  await expect(d).toBeHidden();
});

test("Reset MFA needs a reason of 10 characters and the administrator's code", async () => {
  await openTeamTab();
  const d = await openDrawer(COLE.name);
  await d.getByRole('button', { name: 'Reset MFA' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Multi-Factor Authentication?' });
  await dialog.getByLabel('Reason').fill('lost');
  await dialog.getByRole('button', { name: 'Reset MFA' }).click();
  await expect(dialog.getByText('A reason of at least 10 characters is required for the audit log.')).toBeVisible();
  await shotThemes(page, 'team-reset-mfa');
  await dialog.getByLabel('Reason').fill('Phone with the authenticator was lost');
  await dialog.getByRole('button', { name: 'Reset MFA' }).click();
  await expect(prompt()).toBeVisible();
  await shotThemes(page, 'team-mfa-prompt');
  await fillCode(page, await admin.code());
  await prompt().getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(toast(`Successfully reset MFA for ${COLE.name}`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(d).toBeHidden();
});

test("deactivation ends the colleague's session; reactivation restores access", async () => {
  await openTeamTab();
  const d = await openDrawer(COLE.name);
  await d.getByRole('switch', { name: 'Account Status', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Deactivate User?' });
  await expect(ask).toContainText('ends all of their active sessions immediately');
  await shotThemes(page, 'team-deactivate-confirm');
  await ask.getByRole('button', { name: 'Deactivate' }).click();
  await d.getByRole('button', { name: 'Save Changes' }).click();
  await throughMfa(toast(`Successfully updated ${COLE.name}`));
  // The 30-second grace: the success toast counts down beside its Undo.
  const grace = toast(`Successfully updated ${COLE.name}`);
  await expect(grace).toContainText('User updated successfully');
  await expect(grace).toContainText(/Undo available for \d+ more seconds?\./);
  await expect(grace.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(row(COLE.name)).toContainText('Deactivated');
  await expect(row(COLE.name)).toContainText('No Access');

  // The colleague's open session is over.
  await colePage.goto('/matters');
  await expect(colePage).toHaveURL(/\/login/);

  await openTeamTab();
  const d2 = await openDrawer(COLE.name);
  await d2.getByRole('switch', { name: 'Account Status', exact: true }).click();
  const back = page.getByRole('dialog', { name: 'Reactivate User?' });
  await back.getByRole('button', { name: 'Reactivate' }).click();
  await d2.getByRole('button', { name: 'Save Changes' }).click();
  await throughMfa(toast(`Successfully updated ${COLE.name}`));
  await expect(row(COLE.name)).toContainText('Active');
});

test('the stand-alone Deactivate User Account dialog', async () => {
  await openTeamTab();
  await row(COLE.name)
    .getByRole('button', { name: `Deactivate ${COLE.name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate User Account' });
  await expect(dialog).toContainText(COLE.email);
  await shotThemes(page, 'team-deactivate-account');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('an administrator shares a matter with the guest, who then reads only that matter', async ({ browser }) => {
  for (const matterName of ['Shared Estate', 'Private Estate']) {
    const res = await post('/_api/matters/create', { matterName, clientName: 'Pemberton Family Trust', responsibleAttorney: ADMIN.name });
    expect(res.status(), await res.text()).toBe(200);
  }
  await openTeamTab();
  const d = await openDrawer(GUS.name);
  const shared = d.getByRole('region', { name: 'Shared matters' });
  await expect(shared).toContainText('Until a matter is shared, they see nothing.');
  await shared.getByLabel('Share a matter').fill('Shared');
  await shared.getByRole('button', { name: 'Share Shared Estate' }).click();
  await throughMfa(toast('Matter shared with the guest.'));
  await expect(shared.getByRole('list', { name: 'Matters shared with this guest' })).toContainText('Shared Estate');
  await shotThemes(page, 'team-guest-sharing');
  await page.keyboard.press('Escape');

  const gus = await (await browser.newContext({ baseURL: server.url })).newPage();
  await signInWithEmail(gus, GUS.email, GUS.password);
  await setUpEmailMfa(gus, GUS.email);
  await expect(gus).toHaveURL(/\/matters$/);
  await expect(gus.getByText('Shared Estate')).toBeVisible();
  await expect(gus.getByText('Private Estate')).toHaveCount(0);
  // Settings is their own account only: Profile, no tab of the firm's.
  await gus.goto('/settings');
  await expect(gus.getByRole('tab')).toHaveText(['Profile']);
  await gus.goto('/audit-logs');
  await expect(gus.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await gus.context().close();
});

test('with MFA_USER_MANAGEMENT off, a save asks for no code', async () => {
  // Turning a safeguard off takes a fresh code (a system MFA token is not enough).
  const off = await post('/_api/settings/feature-flags', {
    flagsToUpdate: [{ flagName: 'MFA_USER_MANAGEMENT', enabled: false }],
    mfaToken: await admin.code(),
  });
  expect(off.status(), await off.text()).toBe(200);

  await openTeamTab();
  const d = await openDrawer(COLE.name);
  await d.getByRole('switch', { name: 'Rename', exact: true }).click();
  await d.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(`Successfully updated ${COLE.name}`)).toBeVisible();
  await expect(prompt()).toHaveCount(0);
});

test('the last administrator cannot be demoted: Operation blocked, in the drawer', async () => {
  await openTeamTab();
  const d = await openDrawer(ADMIN.name);
  await expect(d.getByRole('switch', { name: 'Account Status', exact: true })).toBeDisabled();
  await d.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'User' }).click();
  const ask = page.getByRole('dialog', { name: `Change role to User for ${ADMIN.name}?` });
  await ask.getByLabel('Reason').fill('Handing over administration');
  await ask.getByRole('button', { name: 'Change Role' }).click();
  await d.getByRole('button', { name: 'Save Changes' }).click();
  const alert = d.getByRole('alert');
  await expect(alert).toContainText('Operation blocked');
  await expect(alert).toContainText('at least one active administrator');
  // The rule is checked before a code is asked for.
  await expect(prompt()).toHaveCount(0);
  await shotThemes(page, 'team-last-admin');
});
