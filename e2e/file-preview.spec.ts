import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFirmServer, type RunningServer } from './support/server.js';
import { mailDir, setUpEmailMfa, shotThemes, signInWithEmail, waitForCode, waitForLink } from './support/fixtures.js';
import { makeDocx, makeEml, makePdf, makePng } from './support/documents.js';

// A lawyer reads a matter's documents in the page: a PDF (drawn by pdf.js, its text selectable), an image, an
// email and a Word file, each in the preview panel (for now in a drawer opened from a file's actions), at laptop
// and phone sizes. A guest whose grant is 'view' reads them too, without a Download.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-preview-setup-token-0123456789abcdef';
const ADMIN = { email: 'pia@preview.test', name: 'Pia Preview', password: 'preview firm passphrase', firm: 'Preview & Partners' };
const GUEST = { email: 'vic@outside.test', name: 'Vic Viewer', password: 'outside viewer passphrase' };
const PDF_NAME = 'Completion Agreement.pdf';

let server: RunningServer;
let root: string;
let admin: Page;
let guest: Page;
let adminUserId = 0;
let matterId = '';
/** Anything the app's Content-Security-Policy refused while previews were shown (the pdf.js worker, a blob: image). */
const cspErrors: string[] = [];

const headers = () => ({ Origin: server.url });

async function post(url: string, data: object) {
  const res = await admin.request.post(url, { headers: headers(), data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return res.json();
}

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

async function upload(fileName: string, fileType: string, bytes: Buffer) {
  const meta = { fileName, fileType, matterId, parentId: null, fileSize: bytes.length };
  const signed = await post('/_api/upload/presigned', meta);
  const put = await admin.request.put(signed.url, { headers: signed.headers, data: bytes });
  expect(put.status(), await put.text()).toBe(200);
  await post('/_api/upload/multipart-complete', { s3Key: signed.s3Key, ...meta });
}

const detail = (p: Page) => p.getByRole('main');

/** Opens a file's preview from its row's actions; answers the panel. */
async function openPreview(p: Page, name: string) {
  await detail(p)
    .getByRole('table')
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  await p.getByRole('menuitem', { name: 'Open preview' }).click();
  const sheet = p.getByRole('region', { name: `Preview of ${name}` });
  await expect(sheet.getByRole('heading', { name, exact: true })).toBeVisible();
  return sheet;
}

async function closePreview(p: Page, name: string) {
  const sheet = p.getByRole('region', { name: `Preview of ${name}` });
  await sheet.getByRole('button', { name: 'Close preview' }).click();
  await expect(sheet).toBeHidden();
  await expect(detail(p)).toBeVisible();
}

/** The words of a page's text layer, as a reader selecting all of it would copy them. */
const selectedText = (p: Page, pageNumber: number) =>
  p.evaluate((n) => {
    const layer = document.querySelector(`[data-page="${n}"] .textLayer`);
    if (!layer) return '';
    const range = document.createRange();
    range.selectNodeContents(layer);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    const text = selection.toString();
    selection.removeAllRanges();
    return text;
  }, pageNumber);

/** Laptop and phone, light and dark, with axe, then back to the laptop. */
async function shotSizes(p: Page, name: string, ready: () => Promise<void>) {
  await shotThemes(p, `${name}-1440`);
  await p.setViewportSize({ width: 390, height: 844 });
  await ready();
  await shotThemes(p, `${name}-390`);
  await p.setViewportSize({ width: 1440, height: 900 });
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-preview-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  admin = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
  guest = await (await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } })).newPage();
  for (const p of [admin, guest]) {
    p.on('console', (m) => {
      // Parsing the hostile email (DOMParser, inside DOMPurify) makes Chromium report its inline handlers as refused,
      // though nothing runs them; every other refusal would be something a preview needs.
      if (/Content[- ]Security[- ]Policy/i.test(m.text()) && !m.text().startsWith('Executing inline event handler')) {
        cspErrors.push(`${m.text()} at ${m.location().url}:${m.location().lineNumber}`);
      }
    });
  }
});

test.afterAll(async () => {
  await admin?.context().close();
  await guest?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator files a PDF, an image, an email and a Word document in a matter', async () => {
  await admin.goto('/login');
  await signInWithEmail(admin, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(admin, ADMIN.email);
  adminUserId = (await (await admin.request.get('/_api/auth/session', { headers: { 'X-API-Version': 'v1.0.0' } })).json()).user.id;
  matterId = (
    await post('/_api/matters/create', { matterName: 'Crane Conveyancing', clientName: 'Crane Ltd', responsibleAttorney: ADMIN.name })
  ).matter.id;
  const pdf = await makePdf([
    ['Completion Agreement', 'Completion shall take place on 1 March 2027.', 'The purchaser shall pay the balance of the price.'],
    ['Schedule of fixtures', 'The vendor leaves the fitted kitchen and the garden shed.'],
  ]);
  await upload(PDF_NAME, 'application/pdf', pdf);
  await upload('site-plan.png', 'image/png', makePng(480, 300));
  await upload('completion.eml', 'message/rfc822', makeEml());
  const docx = await makeDocx(
    'Defence',
    ['The defendant denies each allegation of the claim.'],
    ['No breach of contract', 'No loss suffered'],
  );
  await upload('Defence.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx);
});

test('a PDF is drawn in the page, page by page, and its text can be selected', async () => {
  await admin.goto(`/matters/${matterId}`);
  await expect(detail(admin).getByRole('row', { name: `File ${PDF_NAME}` })).toBeVisible();
  const sheet = await openPreview(admin, PDF_NAME);
  const first = sheet.getByRole('region', { name: 'Page 1' });
  await expect(first.locator('canvas')).toBeVisible();
  await expect(first.locator('.textLayer')).toContainText('Completion shall take place on 1 March 2027.');
  expect(await selectedText(admin, 1)).toContain('Completion shall take place on 1 March 2027.');
  await expect(sheet.getByText('Page 1 of 2')).toBeVisible();
  // The facts: who filed it, its full sha256, where it is; and Download for a member who may retrieve.
  const facts = sheet.getByRole('region', { name: 'File details' });
  await expect(facts).toContainText(ADMIN.name);
  await expect(facts).toContainText(/[0-9a-f]{64}/);
  await expect(facts).toContainText(`Root / ${PDF_NAME}`);
  await expect(sheet.getByRole('button', { name: 'Download', exact: true })).toBeVisible();
  await shotSizes(admin, 'file-preview-pdf', () => expect(first.locator('.textLayer')).toContainText('Completion shall'));

  await sheet.getByRole('button', { name: 'Next page' }).click();
  const second = sheet.getByRole('region', { name: 'Page 2' });
  await expect(second.locator('.textLayer')).toContainText('The vendor leaves the fitted kitchen');
  await expect(sheet.getByText('Page 2 of 2')).toBeVisible();
  await closePreview(admin, PDF_NAME);
  expect(cspErrors).toEqual([]);
});

test('an image shows in the panel', async () => {
  const sheet = await openPreview(admin, 'site-plan.png');
  const img = sheet.getByRole('img', { name: 'site-plan.png' });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(480);
  await shotSizes(admin, 'file-preview-image', () => expect(img).toBeVisible());
  await closePreview(admin, 'site-plan.png');
  expect(cspErrors).toEqual([]);
});

test('an email shows its headers, its body with nothing in it run, and its attachments', async () => {
  const sheet = await openPreview(admin, 'completion.eml');
  const email = sheet.getByRole('article', { name: 'Email Completion statement' });
  await expect(email).toContainText('Ann Marlow <ann@marlow.example>');
  await expect(email).toContainText('Jane Counsel <jane@firm.example>');
  await expect(email).toContainText('clerk@firm.example');
  await expect(email).toContainText('Please find the completion statement attached.');
  await expect(email.getByRole('region', { name: 'Attachments' })).toContainText('statement.pdf');
  // DOMPurify left no script, handler, style or remote image; nothing ran and the page was not restyled.
  expect(await email.locator('script, style, img, [onclick], [onerror]').count()).toBe(0);
  await email.getByText('Please find the completion').click();
  expect(await admin.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(admin.locator('body')).toBeVisible();
  await shotSizes(admin, 'file-preview-email', () => expect(email).toBeVisible());
  await closePreview(admin, 'completion.eml');
  expect(cspErrors).toEqual([]);
});

test('a Word document shows as HTML', async () => {
  const sheet = await openPreview(admin, 'Defence.docx');
  const doc = sheet.getByRole('document', { name: 'Document Defence.docx' });
  await expect(doc.getByRole('heading', { name: 'Defence' })).toBeVisible();
  await expect(doc).toContainText('The defendant denies each allegation of the claim.');
  await expect(doc.getByRole('listitem')).toHaveText(['No breach of contract', 'No loss suffered']);
  await shotSizes(admin, 'file-preview-word', () => expect(doc).toBeVisible());
  await closePreview(admin, 'Defence.docx');
  expect(cspErrors).toEqual([]);
});

test("a guest with a 'view' grant reads the PDF in the page but is offered no Download", async () => {
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
  await post('/_api/settings/guest-access/grant', { userId: guestId, matterId, access: 'view', mfaToken: await freshCode() });

  await guest.goto('/login');
  await signInWithEmail(guest, GUEST.email, GUEST.password);
  await setUpEmailMfa(guest, GUEST.email);
  await guest.goto(`/matters/${matterId}`);
  await detail(guest)
    .getByRole('table')
    .getByRole('button', { name: `Actions for ${PDF_NAME}` })
    .click();
  await expect(guest.getByRole('menuitem', { name: 'Download' })).toBeDisabled();
  await guest.getByRole('menuitem', { name: 'Open preview' }).click();
  const sheet = guest.getByRole('region', { name: `Preview of ${PDF_NAME}` });
  await expect(sheet.getByRole('region', { name: 'Page 1' }).locator('.textLayer')).toContainText('Completion shall take place');
  await expect(sheet.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await shotThemes(guest, 'file-preview-guest-view-1440');
  await closePreview(guest, PDF_NAME);
  expect(cspErrors).toEqual([]);
});
