import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { Authenticator, checkA11y, fillCode, saveRecoveryCodes, shotThemes, signInWithEmail } from './support/fixtures.js';
import { startFirmServer, startServer, type RunningServer } from './support/server.js';

// The audit log on a Strongroom of its own. The firm is set up with the server's clock 200 days back (the
// entries of that day are old enough to archive), then the server restarts on the real clock. An administrator
// with an authenticator filters, searches, sorts, pages, expands, exports the CSV and reads it back, archives
// (a dry run, then for real), retrieves an archived entry, and runs the integrity and compliance checks.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-audit-setup-token-0123456789abcdef';
const ADMIN = { email: 'abe@ledger.test', name: 'Abe Auditor', password: 'audit passphrase', firm: 'Ledger & Co' };
const DAY = 86_400_000;

let root: string;
let server: RunningServer;
let page: Page;
let authenticator: Authenticator;

/** A JSON call as the signed-in browser makes it (its cookies, same origin). */
async function call(url: string, body: object) {
  const r = await page.request.post(url, { data: body, headers: { Origin: server.url } });
  expect(r.status(), await r.text()).toBeLessThan(300);
  return r.json();
}

/** Answers the per-action code dialog with the next code of the authenticator. */
async function answerCode(name = 'Verification required') {
  const mfa = page.getByRole('dialog', { name });
  await expect(mfa).toBeVisible();
  await fillCode(page, await authenticator.code());
  await mfa.getByRole('button', { name: 'Verify' }).click();
  await expect(mfa).toBeHidden();
}

const table = () => page.getByRole('table', { name: 'Audit logs' });
const rows = () => table().getByTestId('audit-row');

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-audit-'));
  // The server's clock, moved back for the firm's first day: Date.now() and new Date() shifted in the process.
  const shift = path.join(root, 'clock-shift.mjs');
  fs.writeFileSync(
    shift,
    `const shift = Number(process.env.STRONGROOM_E2E_CLOCK_SHIFT_MS || 0);
const RealDate = Date;
class ShiftedDate extends RealDate {
  constructor(...args) { if (args.length === 0) super(RealDate.now() + shift); else super(...args); }
  static now() { return RealDate.now() + shift; }
}
globalThis.Date = ShiftedDate;
`,
  );
  const saved = { NODE_OPTIONS: process.env.NODE_OPTIONS, SHIFT: process.env.STRONGROOM_E2E_CLOCK_SHIFT_MS };
  process.env.NODE_OPTIONS = `${saved.NODE_OPTIONS ?? ''} --import=${pathToFileURL(shift).href}`.trim();
  process.env.STRONGROOM_E2E_CLOCK_SHIFT_MS = String(-200 * DAY);
  let env: Record<string, string>;
  try {
    let old: RunningServer;
    ({ server: old, env } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
    // A few failed sign-ins that day: audited entries of an old day.
    for (let i = 0; i < 3; i++) {
      await fetch(`${old.url}/_api/auth/login_with_password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: old.url },
        body: JSON.stringify({ email: ADMIN.email, password: `wrong password ${i}` }),
      });
    }
    await old.stop();
  } finally {
    if (saved.NODE_OPTIONS === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved.NODE_OPTIONS;
    if (saved.SHIFT === undefined) delete process.env.STRONGROOM_E2E_CLOCK_SHIFT_MS;
    else process.env.STRONGROOM_E2E_CLOCK_SHIFT_MS = saved.SHIFT;
  }
  // Today: retrieval from the local store takes a few seconds, as cold storage would take minutes.
  server = await startServer({ ...env, ARCHIVE_RETRIEVAL_DELAY_SECONDS: '3' });
  page = await (await browser.newContext({ baseURL: server.url, acceptDownloads: true, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator signs in, sets up an authenticator and leaves 60 more entries in the log', async () => {
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
  // Client notes are limited to 20 a minute: 15 of them, and 45 matters.
  for (let i = 0; i < 15; i++)
    await call('/_api/security/forensic-log', {
      action: 'REVIEW_NOTE',
      targetId: `note-${i}`,
      details: { n: i, text: `Review "${i}", done` },
    });
  for (let i = 0; i < 45; i++)
    await call('/_api/matters/create', { matterName: `Ledger matter ${i}`, clientName: 'Ledger client', responsibleAttorney: ADMIN.name });
});

test('the page opens on the entries with no dialog; Show statistics asks for a code, then Archival Overdue', async () => {
  await page.goto('/audit-logs');
  await expect(page.getByRole('heading', { name: 'Audit Logs' })).toBeVisible();
  await expect(rows()).toHaveCount(50);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Archival Overdue')).toBeHidden();
  await shotThemes(page, 'audit-logs-before-statistics');
  // The statistics ask for a code only when asked for (a system token, good for 30 minutes).
  await page.getByRole('button', { name: 'Show statistics' }).click();
  await answerCode('Confirm it’s you');
  await expect(page.getByText('Archival Overdue')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show statistics' })).toBeHidden();
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(rows().first()).toBeVisible();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  // Each row reads as a sentence with names, its raw action code beside it.
  await expect(rows().first().getByTestId('audit-sentence')).toHaveText(/^Abe Auditor (created the matter “Ledger matter \d+”|.+)/);
  await expect(table().getByTestId('audit-sentence').filter({ hasText: 'Abe Auditor created the matter “Ledger matter 44”' })).toHaveCount(
    1,
  );
  await expect(table().locator('[data-action="CREATE_MATTER"]').first()).toContainText('CREATE_MATTER');
  await checkA11y(page, 'audit-logs');
  await shotThemes(page, 'audit-logs');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(rows().first()).toBeVisible();
  await shotThemes(page, 'audit-logs-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('filter by category and by one action, search, sort by action, expand the details', async () => {
  await page.getByRole('combobox', { name: 'Action category' }).click();
  await page.getByRole('option', { name: 'Settings Operations' }).click();
  // Nothing of the kind in the last 30 days (the organization was created 200 days ago).
  await expect(page.getByText('No audit logs found for the selected filters.')).toBeVisible();
  await expect(page.getByText('Page 1 of 2')).toBeHidden();
  await page.getByRole('combobox', { name: 'Action category' }).click();
  await page.getByRole('option', { name: 'Matter Operations' }).click();
  await expect(rows()).toHaveCount(45);
  await page.getByRole('combobox', { name: 'Specific Action' }).click();
  await page.getByRole('option', { name: 'CREATE_MATTER', exact: true }).click();
  await expect(rows()).toHaveCount(45);
  // Each row's stored action (the cell reads a sentence, with the code beside it).
  for (const a of await rows()
    .locator('td:nth-child(3)')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-action'))))
    expect(a).toBe('CREATE_MATTER');
  await expect(rows().first().getByTestId('audit-sentence')).toHaveText(/^Abe Auditor created the matter “Ledger matter \d+”/);
  await expect(rows().first()).toContainText(ADMIN.email);

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(rows()).toHaveCount(50);
  await page.getByRole('searchbox', { name: 'Search logs...' }).fill('note-7');
  await expect(rows()).toHaveCount(1);
  // The note was sent by the browser: marked as such, its action in words.
  await expect(rows().first()).toContainText('Reported by a browser');
  await expect(rows().first().locator('td:nth-child(3)')).toHaveAttribute('data-action', /^CLIENT_REPORTED_/);
  await rows()
    .first()
    .getByRole('button', { name: /^View details/ })
    .click();
  await expect(table().getByText(/"n": 7/)).toBeVisible();
  await rows()
    .first()
    .getByRole('button', { name: /^Hide details/ })
    .click();
  await expect(table().getByText(/"n": 7/)).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search logs...' }).fill('');
  await expect(rows()).toHaveCount(50);

  const actionHeader = table().getByRole('button', { name: 'Action' });
  await actionHeader.click();
  await expect(table().locator('th:nth-child(3)')).toHaveAttribute('aria-sort', 'descending');
  // The stored action of each row (a browser's report shows its name in words, sorted by what is stored).
  const sorted = async (direction: 'asc' | 'desc') => {
    const t = await rows()
      .locator('td:nth-child(3)')
      .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-action') ?? ''));
    const want = [...t].sort();
    if (direction === 'desc') want.reverse();
    return t.length === 50 && JSON.stringify(want) === JSON.stringify(t);
  };
  await expect.poll(() => sorted('desc')).toBe(true);
  await actionHeader.click();
  await expect(table().locator('th:nth-child(3)')).toHaveAttribute('aria-sort', 'ascending');
  await expect(table().locator('th').first()).toHaveAttribute('aria-sort', 'none');
  await expect.poll(() => sorted('asc')).toBe(true);
  await table().getByRole('button', { name: 'Timestamp' }).click();
});

test('export the CSV after a code and read it back', async () => {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await answerCode();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^strongroom_audit_logs_\d{4}-\d\d-\d\dT.*\.csv$/);
  const csv = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
  const [header, ...lines] = csv.split('\r\n').filter(Boolean);
  expect(header).toBe('Timestamp,Actor,Action,Target,Details (JSON),IP Address,archived');
  expect(lines.length).toBeGreaterThanOrEqual(60);
  // Quotes in details are doubled inside a quoted cell.
  expect(csv).toContain('Review \\""7\\"", done');
});

test('archive: a dry run counts on the statistics’ code and shows its result, then Confirm archival moves the old entries', async () => {
  await page.getByRole('button', { name: 'Archive Old Logs' }).click();
  const dialog = page.getByRole('dialog', { name: 'Archive Audit Logs' });
  await expect(dialog.getByRole('checkbox')).toBeChecked();
  await dialog.getByRole('button', { name: 'Run Dry Run' }).click();
  // The code given for the statistics serves the dry run (same class, within 30 minutes): no second prompt.
  await expect(page.getByText(/^Dry run completed: [1-9]\d* logs would be archived$/)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm it’s you' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Verification required' })).toHaveCount(0);
  const result = dialog.getByTestId('dry-run-result');
  await expect(result).toContainText(/[1-9]\d* entr(y|ies) would be archived/);
  await expect(result).toContainText(/Written between .+ and .+\. Entries written before .+ are archived\./);
  await checkA11y(page, 'audit-archive-dry-run');
  await shotThemes(page, 'audit-archive-dry-run');

  await dialog.getByRole('checkbox').uncheck();
  await expect(dialog.getByText(/This is not a dry run/)).toBeVisible();
  await checkA11y(page, 'audit-archive-dialog');
  await dialog.getByRole('button', { name: 'Archive', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm archival' });
  await shotThemes(page, 'audit-archive-confirm');
  await confirm.getByRole('button', { name: 'Confirm archival' }).click();
  // A real archival is another risk class: it asks for a code of its own.
  await answerCode('Confirm it’s you');
  // The archival runs in the background: both dialogs close at once, the panel follows the run, then shows its
  // result (and toasts it).
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('archival-result')).toHaveText(/^Archival completed: [1-9]\d* logs archived to S3$/, { timeout: 30_000 });
  await expect(page.getByText('Compliant', { exact: true })).toBeVisible();
});

test('retrieve an archived entry: in progress, then its details from cache', async () => {
  test.setTimeout(180_000);
  await page.getByRole('button', { name: /^Date range:/ }).click();
  await page.getByRole('button', { name: 'Any date' }).click();
  await page.keyboard.press('Escape');
  await table().getByRole('button', { name: 'Timestamp' }).click();
  await expect(table().locator('th').first()).toHaveAttribute('aria-sort', 'ascending');
  const first = rows().first();
  await expect(first).toContainText('Archived');
  await first.getByRole('button', { name: /^Retrieve details/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Archived Log Details' });
  await expect(dialog.getByText('Retrieve archived Log')).toBeVisible();
  await dialog.getByRole('button', { name: 'Start Retrieval' }).click();
  await expect(dialog.getByText('Retrieving archived Log')).toBeVisible();
  await expect(dialog.getByText('In Progress')).toBeVisible();
  await shotThemes(page, 'audit-retrieval-in-progress');
  await dialog.getByRole('button', { name: 'Continue in Background' }).click();
  await expect(page.getByText('Retrieving 1 archived log(s)...')).toBeVisible();
  // The page checks every 60 s while the retrieval runs.
  await expect(page.getByText('Archived log details retrieved and cached successfully.')).toBeVisible({ timeout: 90_000 });
  await first.getByRole('button', { name: /^View details/ }).click();
  await expect(table().getByText('This log has been archived. Details shown below are from cache.')).toBeVisible();
});

test('the integrity check and the compliance check in Settings, Security', async () => {
  await page.goto('/settings?tab=security');
  await page.getByRole('button', { name: 'Run integrity check' }).click();
  await expect(page.getByText(/^Integrity check passed: \d+ entries verified\.$/)).toBeVisible();
  await page.getByRole('button', { name: 'Run compliance check' }).click();
  await expect(page.getByText(/^Compliance check (passed|found)/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Compliance checks' })).toContainText('AUDIT_CHAIN');
  await checkA11y(page, 'security-tooling');
  await shotThemes(page, 'security-tooling');
});
