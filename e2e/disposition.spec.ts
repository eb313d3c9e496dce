import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openPglite } from '../server/src/platform/db/database.js';
import { Authenticator, fillCode, saveRecoveryCodes, shotThemes, signInWithEmail } from './support/fixtures.js';
import { adminCli, startFirmServer, startServer, type RunningServer } from './support/server.js';

// The disposition review on a Strongroom of its own: a vaulted matter whose retention ends in ten days enters the
// queue (the daily job, run through the admin CLI), and an administrator approves its destruction with a code.
// The retention is made to end soon the way the server tests do it: its date is set in the database (the server
// stopped meanwhile, as PGlite takes one process).
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-disposition-setup-token-0123456789ab';
const ADMIN = { email: 'dora@harbour.test', name: 'Dora Disposal', password: 'disposal passphrase', firm: 'Harbour Legal' };
const MATTER = { name: 'Harbour Lease Dispute', client: 'Harbour Holdings' };
const DAY = 86_400_000;

let root: string;
let env: Record<string, string>;
let server: RunningServer;
let page: Page;
let authenticator: Authenticator;
let matterId = '';

async function call(url: string, body: object) {
  const r = await page.request.post(url, { data: body, headers: { Origin: server.url } });
  expect(r.status(), await r.text()).toBeLessThan(300);
  return r.json();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-disposition-'));
  ({ server, env } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  page = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator signs in, sets up an authenticator and vaults a matter', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  authenticator = new Authenticator(secret);
  await fillCode(page, await authenticator.code());
  await page.getByRole('button', { name: 'Verify & Continue' }).click();
  await saveRecoveryCodes(page);
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Disposition' })).toBeVisible();

  const created = await call('/_api/matters/create', {
    matterName: MATTER.name,
    clientName: MATTER.client,
    responsibleAttorney: ADMIN.name,
  });
  matterId = created.matter.id;
  for (const name of ['lease.pdf', 'correspondence.pdf']) {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(4096)]);
    const meta = { fileName: name, fileType: 'application/pdf', matterId, parentId: null, fileSize: bytes.length };
    const signed = await call('/_api/upload/presigned', meta);
    const put = await page.request.put(signed.url, { data: bytes, headers: signed.headers });
    expect(put.status()).toBe(200);
    await call('/_api/upload/multipart-complete', { s3Key: signed.s3Key, ...meta });
  }
  await call('/_api/vault/start', { matterId, retentionYears: 1, mfaToken: await authenticator.code() });
  await expect
    .poll(async () => (await (await page.request.get(`/_api/vault/detail?matterId=${matterId}`)).json()).matter?.transferState, {
      timeout: 30_000,
    })
    .toBe('completed');
  // Vaulting places the matter under legal hold; the firm lifts it so that its retention can end.
  await call('/_api/matters/legal-hold', {
    matterId,
    action: 'remove',
    reason: 'Dispute settled, no claims pending',
    mfaToken: await authenticator.code(),
  });
});

test('its retention ends in ten days: the daily review puts it in the queue', async () => {
  await server.stop();
  const db = await openPglite(path.join(env.DATA_DIR!, 'pg'));
  try {
    const soon = new Date(Date.now() + 10 * DAY - 60_000);
    await db.db.updateTable('matters').set({ retentionExpiresAt: soon }).where('id', '=', matterId).execute();
    await db.db.updateTable('vaultTransfers').set({ retentionExpiresAt: soon }).where('matterId', '=', matterId).execute();
  } finally {
    await db.close();
  }
  expect(JSON.parse(adminCli(['run-job', 'disposition-review'], env))).toMatchObject({ job: 'disposition-review', queued: 1 });
  server = await startServer(env);

  await page.goto('/vault');
  await page.getByRole('link', { name: 'Disposition review' }).click();
  await expect(page).toHaveURL(/\/vault\/disposition$/);
  await expect(page.getByRole('heading', { name: 'Disposition review', level: 1 })).toBeVisible();
  const row = page.getByTestId('disposition-row').filter({ hasText: MATTER.name });
  await expect(row).toContainText('Due for review');
  await expect(row).toContainText('10 days left');
  await expect(row).toContainText('2 files');
  await shotThemes(page, 'disposition-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row).toContainText('10 days left');
  await shotThemes(page, 'disposition-390');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('an administrator approves its destruction with a code', async () => {
  const row = page.getByTestId('disposition-row').filter({ hasText: MATTER.name });
  await row.getByRole('button', { name: `Approve destruction of ${MATTER.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve destruction' });
  await expect(dialog).toContainText('2 files (2 versions');
  await expect(dialog).toContainText('cannot be undone');
  const submit = dialog.getByRole('button', { name: 'Approve destruction' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Reason').fill('Lease dispute closed; retention policy met');
  await shotThemes(page, 'disposition-destroy-dialog');
  await submit.click();
  const mfa = page.getByRole('dialog', { name: 'Verification required' });
  await expect(mfa).toBeVisible();
  await fillCode(page, await authenticator.code());
  await mfa.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Destruction approved.').first()).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: /^Approved for destruction/ }).click();
  await expect(page).toHaveURL(/status=approved/);
  const approved = page.getByTestId('disposition-row').filter({ hasText: MATTER.name });
  await expect(approved).toContainText('Approved for destruction');
  await shotThemes(page, 'disposition-approved-1280');
});
