import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { mailDir, setUpEmailMfa, shotThemes, signInWithEmail, waitForCode, waitForLink } from './support/fixtures.js';

// A guest does what they were invited for: an administrator shares a matter with them ('Can download'), the guest
// signs in, opens it, downloads its file, and manages their own account in Settings, where only Profile shows.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-guest-setup-token-0123456789abcdef012';
const ADMIN = { email: 'ines@guestfirm.test', name: 'Ines Admin', password: 'guest firm passphrase', firm: 'Guest Firm LLP' };
const GUEST = { email: 'otto@outside.test', name: 'Otto Outside', password: 'outside counsel passphrase' };
const NEW_PASSWORD = 'a new outside counsel passphrase';
const BYTES = Buffer.from('%PDF-1.4 settlement agreement, shared with outside counsel');

let server: RunningServer;
let root: string;
let admin: Page;
let guest: Page;
let adminUserId = 0;
let matterId = '';

const headers = () => ({ Origin: server.url });
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A fresh emailed code for the administrator, for a call that asks for one (waiting out the resend pause). */
async function freshCode(): Promise<string> {
  for (;;) {
    const since = Date.now();
    const sent = await admin.request.post('/_api/auth/mfa-email', { headers: headers(), data: { userId: adminUserId } });
    if (sent.status() === 429) {
      const { details } = (await sent.json()) as { details: { retryAfterSeconds: number } };
      await new Promise((r) => setTimeout(r, (details.retryAfterSeconds + 1) * 1000));
      continue;
    }
    expect(sent.status(), await sent.text()).toBe(200);
    return waitForCode(mailDir(), ADMIN.email, since);
  }
}

async function post(url: string, data: object) {
  const res = await admin.request.post(url, { headers: headers(), data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return res.json();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-guest-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  admin = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
  guest = await (
    await browser.newContext({ baseURL: server.url, acceptDownloads: true, viewport: { width: 1440, height: 900 } })
  ).newPage();
});

test.afterAll(async () => {
  await admin?.context().close();
  await guest?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator makes a matter with a file, invites a guest and shares the matter for download', async () => {
  await admin.goto('/login');
  await signInWithEmail(admin, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(admin, ADMIN.email);
  adminUserId = (await (await admin.request.get('/_api/auth/session', { headers: { 'X-API-Version': 'v1.0.0' } })).json()).user.id;

  matterId = (
    await post('/_api/matters/create', { matterName: 'Harbour Settlement', clientName: 'Harbour Ltd', responsibleAttorney: ADMIN.name })
  ).matter.id;
  const signed = await post('/_api/upload/presigned', {
    fileName: 'settlement.pdf',
    fileType: 'application/pdf',
    matterId,
    parentId: null,
    fileSize: BYTES.length,
  });
  const put = await admin.request.put(signed.url, { headers: signed.headers, data: BYTES });
  expect(put.status(), await put.text()).toBe(200);
  await post('/_api/upload/multipart-complete', {
    s3Key: signed.s3Key,
    fileName: 'settlement.pdf',
    fileType: 'application/pdf',
    matterId,
    parentId: null,
    fileSize: BYTES.length,
  });

  const since = Date.now();
  await post('/_api/settings/users/invite', { email: GUEST.email, role: 'guest', mfaToken: await freshCode() });
  const link = new URL(await waitForLink(mailDir(), GUEST.email, since, '/accept-invitation'));
  const accepted = await guest.request.post('/_api/auth/invitation-accept', {
    headers: headers(),
    data: { token: link.searchParams.get('token'), fullName: GUEST.name, password: GUEST.password },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  const team = await (await admin.request.get('/_api/settings/users')).json();
  const guestId = team.users.find((u: { email: string }) => u.email === GUEST.email).id;
  const granted = await post('/_api/settings/guest-access/grant', {
    userId: guestId,
    matterId,
    access: 'download',
    mfaToken: await freshCode(),
  });
  expect(granted.grants).toEqual([expect.objectContaining({ matterId, access: 'download' })]);
});

test('the guest signs in, opens the shared matter and downloads its file intact', async () => {
  await guest.goto('/login');
  await signInWithEmail(guest, GUEST.email, GUEST.password);
  await setUpEmailMfa(guest, GUEST.email);
  await expect(guest).toHaveURL(/\/matters$/);
  const nav = guest.getByRole('navigation', { name: /main/i });
  await expect(nav.getByRole('link')).toHaveText(['Matters', 'Settings', 'Help']);

  await guest.getByText('Harbour Settlement').click();
  const detail = guest.getByRole('main');
  const row = detail.getByRole('table').getByRole('row', { name: 'File settlement.pdf' });
  await expect(row).toBeVisible();
  await shotThemes(guest, 'guest-shared-matter');

  // Enter opens the file's panel, whose Download the guest's grant allows (the panel's own button: the versions
  // list below it, loaded a moment later, has 'Download version 1' too).
  await row.focus();
  await guest.keyboard.press('Enter');
  const panel = guest.getByRole('complementary', { name: 'File preview' });
  const downloaded = guest.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download', exact: true }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe('settlement.pdf');
  expect(sha256(fs.readFileSync((await download.path())!))).toBe(sha256(BYTES));
  await guest.keyboard.press('Escape');
});

test('the guest manages their own account in Settings (Profile only) and changes their password', async () => {
  await guest.goto('/settings?tab=organization');
  await expect(guest.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(guest.getByRole('tab')).toHaveText(['Profile']);
  await expect(guest.getByRole('region', { name: 'Personal Information' }).getByText(GUEST.email)).toBeVisible();
  await expect(guest.getByRole('region', { name: 'Security' })).toBeVisible();
  await shotThemes(guest, 'guest-settings-1440');
  await guest.setViewportSize({ width: 390, height: 844 });
  await shotThemes(guest, 'guest-settings-390');
  await guest.setViewportSize({ width: 1440, height: 900 });

  const form = guest.getByRole('region', { name: 'Change Password' });
  await form.getByLabel('Current password').fill(GUEST.password);
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change Password' }).click();
  await expect(guest.locator('[data-sonner-toast]').filter({ hasText: 'Password changed successfully.' })).toBeVisible();

  // The new password signs the guest in; the firm's settings still refuse them at the server.
  const fresh = await guest.context().browser()!.newContext({ baseURL: server.url });
  const p = await fresh.newPage();
  try {
    await signInWithEmail(p, GUEST.email, NEW_PASSWORD);
    await expect(p).toHaveURL(/\/matters$/);
    expect((await p.request.get('/_api/settings/organization')).status()).toBe(403);
    expect((await p.request.get('/_api/settings/users')).status()).toBe(403);
  } finally {
    await fresh.close();
  }
});
