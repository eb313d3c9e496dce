import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  Authenticator,
  checkA11y,
  fillCode,
  mailDir,
  saveRecoveryCodes,
  shotThemes,
  signInWithEmail,
  waitForLink,
} from './support/fixtures.js';
import { startFirmServer, type RunningServer } from './support/server.js';

// Four-eyes approvals on a Strongroom of their own: administrator Ada turns on 'Vault a matter' once a second
// administrator (Ben) is there, asks to vault a matter and sees 'Waiting for approval' with what would happen; she
// cannot approve her own request; Ben approves it with a fresh code from his authenticator and the matter is
// vaulted. A second request Ben rejects with a reason, and Ada sees it rejected.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-approvals-setup-token-0123456789abcd';
const ADA = { email: 'ada@fourEyes.test'.toLowerCase(), name: 'Ada Admin', password: 'four eyes passphrase', firm: 'Four Eyes LLP' };
const BEN = { email: 'ben@foureyes.test', name: 'Ben Second', password: 'second pair of eyes' };
const FIRST = { name: 'Northgate Lease Dispute', client: 'Northgate Holdings' };
const SECOND = { name: 'Southbank Merger Review', client: 'Southbank plc' };
const REJECT_REASON = 'The client has not signed off the retention yet';

let root: string;
let server: RunningServer;
let ada: Page;
let ben: Page;
let adaCodes: Authenticator;
let benCodes: Authenticator;
const matterIds: Record<string, string> = {};

const headers = () => ({ Origin: server.url });

/** A JSON call as a signed-in browser makes it (its cookies, same origin). */
async function call(page: Page, url: string, data: object) {
  const r = await page.request.post(url, { data, headers: headers() });
  expect(r.status(), `${url}: ${await r.text()}`).toBeLessThan(300);
  return r.json();
}

/** Answers the code dialog with the next code of the person's authenticator. */
async function answerCode(page: Page, codes: Authenticator) {
  const mfa = page.getByRole('dialog', { name: 'Verification required' });
  await expect(mfa).toBeVisible();
  await fillCode(page, await codes.code());
  await mfa.getByRole('button', { name: 'Verify' }).click();
  await expect(mfa).toBeHidden();
}

/** First sign-in: email code, then an authenticator on the setup wall and its recovery codes. */
async function signInWithAuthenticator(page: Page, email: string, password: string): Promise<Authenticator> {
  await page.goto('/login');
  await signInWithEmail(page, email, password);
  await expect(page.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  const codes = new Authenticator(secret);
  await fillCode(page, await codes.code());
  await page.getByRole('button', { name: 'Verify & Continue' }).click();
  await saveRecoveryCodes(page);
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();
  return codes;
}

async function newMatterWithFiles(matter: { name: string; client: string }, fileNames: string[]): Promise<string> {
  const created = await call(ada, '/_api/matters/create', {
    matterName: matter.name,
    clientName: matter.client,
    responsibleAttorney: ADA.name,
  });
  const matterId = created.matter.id as string;
  for (const fileName of fileNames) {
    const bytes = Buffer.from(`${matter.name}: ${fileName}\n`.repeat(50));
    const signed = await call(ada, '/_api/upload/presigned', {
      fileName,
      fileType: 'text/plain',
      matterId,
      parentId: null,
      fileSize: bytes.length,
    });
    const put = await ada.request.put(signed.url, { headers: signed.headers, data: bytes });
    expect(put.status(), await put.text()).toBe(200);
    await call(ada, '/_api/upload/multipart-complete', {
      s3Key: signed.s3Key,
      fileName,
      fileType: 'text/plain',
      matterId,
      parentId: null,
      fileSize: bytes.length,
    });
  }
  return matterId;
}

/** Asks to vault a matter through its page; answers the waiting dialog. */
async function askToVault(matterId: string) {
  await ada.goto(`/matters/${matterId}`);
  const main = ada.getByRole('main');
  await main.getByRole('button', { name: 'Vault Matter' }).click();
  await ada.getByRole('dialog', { name: 'Vault Matter' }).getByRole('button', { name: 'Vault Matter' }).click();
  await answerCode(ada, adaCodes);
  const waiting = ada.getByRole('dialog', { name: 'Waiting for approval' });
  await expect(waiting).toBeVisible();
  return waiting;
}

async function newContext(browser: Browser, width = 1440) {
  return (await browser.newContext({ baseURL: server.url, viewport: { width, height: 900 } })).newPage();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-approvals-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADA, SETUP_TOKEN));
  ada = await newContext(browser);
  ben = await newContext(browser);
});

test.afterAll(async () => {
  await ada?.context().close();
  await ben?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('with one administrator the approval rules cannot be turned on, and say why', async () => {
  adaCodes = await signInWithAuthenticator(ada, ADA.email, ADA.password);
  await ada.goto('/settings?tab=security');
  const card = ada.getByRole('region', { name: 'Approvals' });
  await expect(card.getByText('Approval rules need a second active administrator: invite or promote one first.')).toBeVisible();
  await expect(card.getByRole('checkbox', { name: 'Vault a matter' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Save approval rules' })).toBeDisabled();
  // Nothing to decide yet: no badge, an empty list.
  await ada.goto('/approvals');
  await expect(ada.getByRole('heading', { name: 'No requests are waiting for a decision.' })).toBeVisible();
  await checkA11y(ada, 'approvals-empty');
});

test('a second administrator joins; Ada turns on approval for vaulting', async () => {
  const since = Date.now();
  await call(ada, '/_api/settings/users/invite', { email: BEN.email, role: 'admin', mfaToken: await adaCodes.code() });
  const link = new URL(await waitForLink(mailDir(), BEN.email, since, '/accept-invitation'));
  const accepted = await ben.request.post('/_api/auth/invitation-accept', {
    headers: headers(),
    data: { token: link.searchParams.get('token'), fullName: BEN.name, password: BEN.password },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  benCodes = await signInWithAuthenticator(ben, BEN.email, BEN.password);

  await ada.goto('/settings?tab=security');
  const card = ada.getByRole('region', { name: 'Approvals' });
  await expect(card.getByRole('checkbox', { name: 'Vault a matter' })).toBeEnabled();
  await expect(card.getByText('Approval rules need a second active administrator', { exact: false })).toHaveCount(0);
  await card.getByRole('checkbox', { name: 'Vault a matter' }).check();
  await card.getByLabel('Requests expire after (hours)').fill('48');
  await card.getByRole('button', { name: 'Save approval rules' }).click();
  await answerCode(ada, adaCodes);
  await expect(ada.getByText('Approval rules saved.').first()).toBeVisible();
  await expect(card.getByRole('checkbox', { name: 'Vault a matter' })).toBeChecked();
  await shotThemes(ada, 'approvals-settings');
});

test('asking to vault a matter waits for approval and shows what would happen', async () => {
  matterIds.first = await newMatterWithFiles(FIRST, ['lease.txt', 'notice.txt']);
  matterIds.second = await newMatterWithFiles(SECOND, ['heads-of-terms.txt']);
  const waiting = await askToVault(matterIds.first);
  await expect(waiting).toContainText('Nothing has changed yet.');
  await expect(waiting).toContainText(`Vault matter`);
  await expect(waiting).toContainText(FIRST.name);
  await expect(waiting.getByRole('note')).toHaveText('This cannot be undone.');
  const files = waiting.getByRole('definition').filter({ hasText: /^2$/ });
  await expect(files).toHaveCount(2); // Files: 2, Versions: 2
  // Not a success: the vault dialog is gone without 'Matter vaulted', and the matter is not vaulted.
  await expect(ada.getByRole('dialog', { name: 'Matter Vaulted' })).toHaveCount(0);
  await expect(ada.getByText('Matter vaulted successfully', { exact: false })).toHaveCount(0);

  for (const width of [1280, 390]) {
    await ada.setViewportSize({ width, height: 900 });
    await expect(waiting).toBeVisible();
    await shotThemes(ada, `approvals-waiting-${width}`);
  }
  await ada.setViewportSize({ width: 1440, height: 900 });
  await waiting.getByRole('link', { name: 'View the request' }).click();
  await expect(ada).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
});

test('Ada cannot decide her own request', async () => {
  const main = ada.getByRole('main');
  await expect(main.getByRole('heading', { name: /Vault matter/, level: 1 })).toBeVisible();
  await expect(main.getByText('You cannot approve or reject your own request: another administrator must decide it.')).toBeVisible();
  await expect(main.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(main.getByRole('button', { name: 'Reject' })).toHaveCount(0);
  await ada.goto(`/matters/${matterIds.first}`);
  await expect(ada.getByRole('main').getByRole('button', { name: 'Vault Matter' })).toBeEnabled();
});

test('Ben sees the request waiting for him and approves it with a fresh code; the matter is vaulted', async () => {
  await ben.goto('/');
  const nav = ben.getByRole('navigation', { name: /main/i });
  await expect(nav.getByRole('link', { name: /Approvals/ })).toContainText('1');
  await nav.getByRole('link', { name: /Approvals/ }).click();
  const table = ben.getByRole('table', { name: 'Approval requests' });
  const row = table.getByRole('row').filter({ hasText: FIRST.name });
  await expect(row).toContainText('Vault a matter');
  await expect(row).toContainText(ADA.name);
  for (const width of [1280, 390]) {
    await ben.setViewportSize({ width, height: 900 });
    // A table from 768 px, cards on a phone.
    if (width === 1280) await expect(row).toBeVisible();
    else
      await expect(ben.getByRole('list', { name: 'Approval requests' }).getByRole('link', { name: new RegExp(FIRST.name) })).toBeVisible();
    await shotThemes(ben, `approvals-page-${width}`);
  }
  await ben.setViewportSize({ width: 1440, height: 900 });

  await row.getByRole('link', { name: new RegExp(FIRST.name) }).click();
  const main = ben.getByRole('main');
  await expect(main.getByRole('note')).toHaveText('This cannot be undone.');
  await expect(main.getByText('POST /_api/vault/start')).toBeVisible();
  for (const width of [1280, 390]) {
    await ben.setViewportSize({ width, height: 900 });
    await expect(main.getByRole('button', { name: 'Approve' })).toBeVisible();
    await shotThemes(ben, `approvals-detail-${width}`);
  }
  await ben.setViewportSize({ width: 1440, height: 900 });

  await main.getByRole('button', { name: 'Approve' }).click();
  // Approving always asks for a code of Ben's own second factor.
  await answerCode(ben, benCodes);
  await expect(main.getByText('Approved', { exact: true }).first()).toBeVisible();
  await expect(main.getByText('Decided by')).toBeVisible();
  await expect(main.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // The vault ran for Ada: her matter shows vaulted (the transfer goes on on the server).
  await expect(async () => {
    await ada.goto(`/matters/${matterIds.first}`);
    await expect(ada.getByRole('main').getByText('Vaulted', { exact: true }).first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(ada.getByRole('main').getByRole('button', { name: 'Vault Matter' })).toHaveCount(0);
});

test('Ben rejects another request with a reason, and Ada sees it rejected', async () => {
  const waiting = await askToVault(matterIds.second);
  await waiting.getByRole('button', { name: 'Done' }).click();
  await expect(waiting).toBeHidden();

  await ben.goto('/approvals');
  await ben
    .getByRole('table', { name: 'Approval requests' })
    .getByRole('link', { name: new RegExp(SECOND.name) })
    .click();
  const main = ben.getByRole('main');
  // Rejecting without a reason is refused in the form, before anything is sent.
  await main.getByRole('button', { name: 'Reject' }).click();
  await expect(main.getByText('Give a reason for rejecting the request.')).toBeVisible();
  await main.getByLabel('Reason').fill(REJECT_REASON);
  await main.getByRole('button', { name: 'Reject' }).click();
  await expect(ben.getByText('Rejected. Nothing was changed.').first()).toBeVisible();
  await expect(main.getByText(REJECT_REASON)).toBeVisible();

  await ada.goto('/approvals?status=rejected');
  const row = ada.getByRole('table', { name: 'Approval requests' }).getByRole('row').filter({ hasText: SECOND.name });
  await expect(row).toContainText('Rejected');
  await row.getByRole('link', { name: new RegExp(SECOND.name) }).click();
  await expect(ada.getByRole('main').getByText(REJECT_REASON)).toBeVisible();
  await expect(ada.getByRole('main').getByText(BEN.name)).toBeVisible();
  await checkA11y(ada, 'approvals-rejected-detail');
  await ada.goto(`/matters/${matterIds.second}`);
  await expect(ada.getByRole('main').getByRole('button', { name: 'Vault Matter' })).toBeEnabled();
});
