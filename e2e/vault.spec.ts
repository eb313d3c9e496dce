import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { Authenticator, checkA11y, expectTableFits, fillCode, saveRecoveryCodes, shotThemes, signInWithEmail } from './support/fixtures.js';
import { startFirmServer, type RunningServer } from './support/server.js';

// Legal hold and the vault on a Strongroom of their own: an administrator with an authenticator applies and
// removes a hold, vaults the matter with a code, reviews it on /vault, exports the chain-of-custody report (HTML and PDF) and
// the signed certificate, and a third party verifies that certificate and the files with no server.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-vault-setup-token-0123456789abcdef';
const ADMIN = { email: 'vera@keystone.test', name: 'Vera Vault', password: 'vault passphrase', firm: 'Keystone Legal' };
const MATTER = { name: 'Keystone Estate Administration', client: 'Keystone Family Trust' };
const HOLD_REASON = 'Regulator inquiry: preserve every record';
const repoRoot = path.resolve(import.meta.dirname, '..');

let root: string;
let server: RunningServer;
let page: Page;
let authenticator: Authenticator;
let matterId = '';
const files: Record<string, Buffer> = {};
const downloads: { report?: string; pdf?: string; certificate?: string } = {};

/** A JSON call as the signed-in browser makes it (its cookies, same origin). */
async function call(url: string, body: object) {
  const r = await page.request.post(url, { data: body, headers: { Origin: server.url } });
  expect(r.status(), await r.text()).toBeLessThan(300);
  return r.json();
}

const detail = () => page.getByRole('main');

/** Answers the code dialog with the next code of the authenticator. */
async function answerCode() {
  const mfa = page.getByRole('dialog', { name: 'Verification required' });
  await expect(mfa).toBeVisible();
  await fillCode(page, await authenticator.code());
  await mfa.getByRole('button', { name: 'Verify' }).click();
  await expect(mfa).toBeHidden();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-vault-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  files['engagement-letter.pdf'] = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(24 * 1024)]);
  files['inventory.txt'] = Buffer.from('Estate inventory\n'.repeat(200));
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(root, name), bytes);
  page = await (await browser.newContext({ baseURL: server.url, acceptDownloads: true, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator signs in and sets up an authenticator', async () => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  authenticator = new Authenticator(secret);
  await fillCode(page, await authenticator.code());
  await page.getByRole('button', { name: 'Verify & Continue' }).click();
  await saveRecoveryCodes(page);
  const shell = page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' });
  // Once the recovery codes are saved, the setup wall gives way to the shell.
  await expect(shell).toBeVisible();
});

test('a matter with a folder and two files', async () => {
  const created = await call('/_api/matters/create', {
    matterName: MATTER.name,
    clientName: MATTER.client,
    responsibleAttorney: ADMIN.name,
  });
  matterId = created.matter.id;
  await call('/_api/nodes/create', { matterId, parentId: null, folderName: 'Probate' });
  await page.goto(`/matters/${matterId}`);
  await expect(detail().getByRole('heading', { name: MATTER.name })).toBeVisible();
  await detail().getByRole('button', { name: 'Upload' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await upload.getByLabel('Choose files to upload').setInputFiles(Object.keys(files).map((n) => path.join(root, n)));
  await upload.getByRole('button', { name: 'Upload 2 Files' }).click();
  await expect(page.getByText('All 2 files uploaded successfully!')).toBeVisible();
  await expect(upload).toBeHidden();
  await expect(detail().getByRole('table')).toContainText('inventory.txt');
});

test('apply a legal hold with a reason, then remove it, each with a code', async () => {
  // The firm asks for a code on vault operations (MFA_VAULT_OPERATIONS): each hold change then needs one.
  const flags = await page.request.post('/_api/settings/feature-flags', {
    data: { flagsToUpdate: [{ flagName: 'MFA_VAULT_OPERATIONS', enabled: true }], mfaToken: await authenticator.code() },
    headers: { Origin: server.url },
  });
  expect(flags.status(), await flags.text()).toBe(200);

  await detail().getByRole('button', { name: 'Apply Legal Hold' }).click();
  const hold = page.getByRole('dialog', { name: 'Apply Legal Hold' });
  const next = hold.getByRole('button', { name: 'Continue' });
  await expect(next).toBeDisabled();
  await hold.getByLabel('Reason').fill('Too short');
  await expect(hold.getByText('Reason must be at least 10 characters long.')).toBeVisible();
  await expect(next).toBeDisabled();
  await hold.getByLabel('Reason').fill(HOLD_REASON);
  await expect(next).toBeEnabled();
  await shotThemes(page, 'legal-hold-dialog');
  await next.click();

  const confirm = page.getByRole('dialog', { name: 'Confirm: Apply Legal Hold' });
  await expect(confirm).toContainText(HOLD_REASON);
  await checkA11y(page, 'legal-hold-confirm');
  await confirm.getByRole('button', { name: 'Confirm & Proceed' }).click();
  await answerCode();
  const applied = page.getByRole('dialog', { name: 'Legal Hold Applied' });
  await expect(applied).toBeVisible();
  await expect(page.getByText('Legal hold successfully applied.').first()).toBeVisible();
  await applied.getByRole('button', { name: 'Done' }).click();

  // The matter shows the hold: badge, banner with the reason, no changes, no vaulting.
  await expect(detail().getByText('Legal Hold', { exact: true })).toBeVisible();
  await expect(detail().getByText(HOLD_REASON, { exact: false })).toBeVisible();
  await expect(detail().getByRole('button', { name: 'Upload' })).toBeDisabled();
  await expect(detail().getByRole('button', { name: 'Vault Matter' })).toBeDisabled();

  await detail().getByRole('button', { name: 'Remove Legal Hold' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove Legal Hold' });
  await remove.getByLabel('Reason (optional)').fill('Inquiry closed without findings');
  await remove.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Confirm: Remove Legal Hold' }).getByRole('button', { name: 'Confirm & Proceed' }).click();
  await answerCode();
  const removed = page.getByRole('dialog', { name: 'Legal Hold Removed' });
  await expect(removed).toBeVisible();
  await expect(page.getByText('Legal hold successfully removed.').first()).toBeVisible();
  await removed.getByRole('button', { name: 'Done' }).click();
  await expect(detail().getByRole('button', { name: 'Apply Legal Hold' })).toBeVisible();
  await expect(detail().getByRole('button', { name: 'Upload' })).toBeEnabled();
});

test('vault the matter with a code from the authenticator', async () => {
  await detail().getByRole('button', { name: 'Vault Matter' }).click();
  const vault = page.getByRole('dialog', { name: 'Vault Matter' });
  const retention = vault.getByRole('combobox', { name: 'Retention Period' });
  await expect(retention).toHaveText(/7 years \(recommended\)/);
  await expect(
    vault.getByText(
      'After the retention period, files are deleted only once an administrator approves it in the disposition review, and never under legal hold.',
    ),
  ).toBeVisible();
  await retention.click();
  await page.getByRole('option', { name: '10 years' }).click();
  await shotThemes(page, 'vault-dialog');
  await vault.getByRole('button', { name: 'Vault Matter' }).click();

  // Vaulting always asks for a fresh code, over the processing step.
  await expect(page.getByRole('dialog', { name: 'Verification required' })).toBeVisible();
  // Under the code dialog (hidden from the accessibility tree while it is open) the processing step waits at 75%.
  await expect(page.locator('[role="progressbar"][aria-label="Vaulting progress"]')).toHaveAttribute('aria-valuenow', '75');
  await answerCode();

  const success = page.getByRole('dialog', { name: 'Matter Vaulted' });
  await expect(success).toBeVisible();
  await expect(success).toContainText('10 years');
  await expect(success).toContainText('Legal Hold Active');
  await expect(success).toContainText('Files are being transferred to cold storage');
  // It closes by itself after 2 s, and the matter shows vaulted and read-only.
  await expect(success).toBeHidden({ timeout: 10_000 });
  await expect(detail().getByText('Vaulted', { exact: true }).first()).toBeVisible();
  await expect(detail().getByRole('button', { name: 'Vault Matter' })).toHaveCount(0);
  await expect(detail().getByRole('button', { name: 'Remove Legal Hold' })).toBeVisible();
});

test('the vaulted matter on /vault, its sheet and both tabs', async () => {
  await page.goto('/vault');
  await expect(page.getByRole('heading', { name: 'Vault', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Vaulted matters' });
  const row = table.getByRole('row').filter({ hasText: MATTER.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(MATTER.client);
  await expect(row).toContainText(/9 years, \d+ days left|10 years left/);
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByText('Page 1 of 1 (1 results)')).toBeVisible();
  // With no matter chosen, Export Report still offers the register of every vaulted matter.
  await expect(page.getByRole('button', { name: 'Export Report' })).toBeEnabled();
  await shotThemes(page, 'vault-page');
  await expectTableFits(page, table, 'vault-page');

  // Search (debounced) and the hold filter live in the address.
  await page.getByRole('searchbox', { name: 'Search vaulted matters' }).fill('no such matter');
  await expect(page).toHaveURL(/searchQuery=no\+such\+matter/);
  await expect(page.getByRole('heading', { name: 'No Vaulted Matters Found' })).toBeVisible();
  await checkA11y(page, 'vault-page-empty');
  await page.getByRole('searchbox', { name: 'Search vaulted matters' }).fill('keystone');
  await expect(row).toBeVisible();
  await page.getByRole('combobox', { name: 'Legal hold status' }).click();
  await page.getByRole('option', { name: 'Not Under Legal Hold' }).click();
  await expect(page).toHaveURL(/legalHold=false/);
  await expect(page.getByRole('heading', { name: 'No Vaulted Matters Found' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Legal hold status' }).click();
  await page.getByRole('option', { name: 'Under Legal Hold', exact: true }).click();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: `View details of ${MATTER.name}` }).click();
  const sheet = page.getByRole('dialog', { name: MATTER.name });
  await expect(sheet).toContainText(`Client: ${MATTER.client}`);
  await expect(sheet.getByText('Under Legal Hold')).toBeVisible();
  // The transfer runs in the background; the sheet reads its state again until every file is in.
  await expect(sheet.getByText('In the vault')).toBeVisible({ timeout: 60_000 });
  await expect(sheet).toContainText('2 files');
  const contents = sheet.getByRole('table', { name: 'Contents of Root' });
  await expect(contents).toContainText('engagement-letter.pdf');
  await expect(contents).toContainText('Probate');
  await shotThemes(page, 'vault-sheet');

  await sheet.getByRole('tab', { name: 'Audit Log' }).click();
  const log = sheet.getByRole('list', { name: 'Audit log' });
  await expect(log).toContainText('VAULT_MATTER');
  await expect(log).toContainText('APPLY_LEGAL_HOLD');
  // Each entry reads as a sentence with names, its action code beside it.
  await expect(log).toContainText(`${ADMIN.name} vaulted the matter “${MATTER.name}”`);
  await expect(log).toContainText(`${ADMIN.name} placed “${MATTER.name}” under legal hold`);
  await shotThemes(page, 'vault-sheet-audit');
});

test('export the report and the certificate, and verify the certificate and the files with no server', async () => {
  const sheet = page.getByRole('dialog', { name: MATTER.name });
  for (const [kind, item] of [
    ['report', 'Chain-of-custody report (HTML)'],
    ['pdf', 'Chain-of-custody report (PDF)'],
    ['certificate', 'Signed certificate (JSON)'],
  ] as const) {
    await sheet.getByRole('button', { name: 'Export Report' }).click();
    const started = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: item }).click();
    const download = await started;
    const to = path.join(root, 'exports', download.suggestedFilename());
    await download.saveAs(to);
    downloads[kind] = to;
  }
  expect(downloads.report).toMatch(/\.html$/);
  expect(fs.readFileSync(downloads.report!, 'utf8')).toContain(MATTER.name);
  expect(downloads.pdf).toMatch(/\.pdf$/);
  expect(fs.readFileSync(downloads.pdf!).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The certificate names every file with its sha256; a third party puts the files next to it and checks.
  const certificate = JSON.parse(fs.readFileSync(downloads.certificate!, 'utf8')) as {
    payload: { files: { path: string; sha256: string }[] };
  };
  expect(certificate.payload.files.map((f) => path.basename(f.path)).sort()).toEqual(Object.keys(files).sort());
  const dir = path.join(root, 'files');
  for (const f of certificate.payload.files) {
    const bytes = files[path.basename(f.path)]!;
    expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), bytes);
  }
  // The key is trusted through the firm's published list, as the report's 'How to verify' says.
  const keysUrl = `${server.url}/.well-known/strongroom-signing-keys`;
  const verify = (args: string[]) =>
    spawnSync('npm', ['run', '--silent', 'verify-certificate', '--', ...args, '--keys-url', keysUrl], { cwd: repoRoot, encoding: 'utf8' });
  const ok = verify([downloads.certificate!, '--files', dir]);
  expect(ok.status, ok.stdout + ok.stderr).toBe(0);

  // One changed byte in a file is found.
  const first = path.join(dir, certificate.payload.files[0]!.path);
  const tampered = fs.readFileSync(first);
  tampered[0] = tampered[0]! ^ 0xff;
  fs.writeFileSync(first, tampered);
  const bad = verify([downloads.certificate!, '--files', dir]);
  expect(bad.status, bad.stdout + bad.stderr).toBe(1);

  // Closed, the matter stays selected and the page's own Export Report gives the same certificate.
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]matter=/);
  const header = page.getByRole('button', { name: 'Export Report' });
  await expect(header).toBeEnabled();
  await header.click();
  const again = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Signed certificate (JSON)' }).click();
  const copy = path.join(root, 'exports', 'again.json');
  await (await again).saveAs(copy);
  expect(fs.readFileSync(copy).equals(fs.readFileSync(downloads.certificate!))).toBe(true);
});

test('Export Report on the page downloads the register of vaulted matters as CSV and as a printable report', async () => {
  await page.keyboard.press('Escape');
  await page.goto('/vault');
  const certificate = JSON.parse(fs.readFileSync(downloads.certificate!, 'utf8')) as { keyId: string };
  const exportButton = page.getByRole('button', { name: 'Export Report' });
  await exportButton.click();
  await expect(page.getByRole('menuitem', { name: 'Vault register (CSV)' })).toBeVisible();
  let started = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Vault register (CSV)' }).click();
  const csvFile = await started;
  expect(csvFile.suggestedFilename()).toMatch(/^strongroom_vault_register_.*\.csv$/);
  const csv = fs.readFileSync((await csvFile.path())!, 'utf8').replace(/^\uFEFF/, '');
  const [header, ...lines] = csv.split('\r\n').filter(Boolean);
  expect(header).toBe('Matter,Matter number,Client,Vaulted at,Retention ends,Legal hold,Files,Bytes,Certificate ID,Key fingerprint');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(MATTER.name);
  expect(lines[0]).toContain(MATTER.client);
  expect(lines[0]).toMatch(/,Yes,2,\d+,[0-9a-f-]{36},[0-9a-f]{64}$/);
  expect(lines[0]!.endsWith(certificate.keyId)).toBe(true);

  await exportButton.click();
  started = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Vault register (printable report)' }).click();
  const htmlFile = await started;
  expect(htmlFile.suggestedFilename()).toMatch(/^strongroom_vault_register_.*\.html$/);
  const html = fs.readFileSync((await htmlFile.path())!, 'utf8');
  expect(html).toContain('@media print');
  expect(html).toContain(MATTER.name);
  expect(html).toContain(certificate.keyId);

  await checkA11y(page, 'vault-page');
  await shotThemes(page, 'vault-page-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(exportButton).toBeVisible();
  await shotThemes(page, 'vault-page-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});
