import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { checkA11y, setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';
import { startFirmServer, type RunningServer } from './support/server.js';

// File versions in the browser: a file uploaded, the same name uploaded again as a new version (the upload dialog
// asks), the versions listed, an earlier one downloaded and restored (it becomes a new version), at 1440 and 390.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-versions-setup-token-0123456789abcdef';
const ADMIN = { email: 'vera@revisions.test', name: 'Vera Versions', password: 'versions passphrase', firm: 'Revisions LLP' };

let root: string;
let server: RunningServer;
let page: Page;
let matterId = '';
const files: Record<'first' | 'second', string> = { first: '', second: '' };

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const detail = () => page.getByRole('main');
const contents = () => detail().getByRole('table');
const versionsDialog = () => page.getByRole('dialog', { name: 'Versions' });

async function openVersions() {
  await contents().getByRole('button', { name: 'Actions for Defence.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Versions' }).click();
  await expect(versionsDialog().getByRole('list', { name: 'Versions of Defence.pdf' })).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-versions-'));
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN));
  for (const key of ['first', 'second'] as const) {
    const dir = path.join(root, key);
    fs.mkdirSync(dir);
    files[key] = path.join(dir, 'Defence.pdf');
    fs.writeFileSync(files[key], Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(key === 'first' ? 20_000 : 30_000)]));
  }
  page = await (await browser.newContext({ baseURL: server.url, acceptDownloads: true, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('sign in, make a matter and upload Defence.pdf', async () => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  const created = await page.request.post('/_api/matters/create', {
    data: { matterName: 'Revised Pleadings', clientName: 'Draft & Sons', responsibleAttorney: ADMIN.name },
    headers: { Origin: server.url },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  matterId = (await created.json()).matter.id;

  await page.goto(`/matters/${matterId}`);
  await expect(detail().getByRole('heading', { name: 'Revised Pleadings' })).toBeVisible();
  await detail().getByRole('button', { name: 'Upload' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await upload.getByLabel('Choose files to upload').setInputFiles(files.first);
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('All 1 files uploaded successfully!')).toBeVisible();
  await expect(upload).toBeHidden({ timeout: 5_000 });
  await expect(contents().getByRole('row', { name: 'File Defence.pdf' })).toBeVisible();
});

test('the same name again: the dialog asks, and a new version is the default', async () => {
  await detail().getByRole('button', { name: 'Upload' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await upload.getByLabel('Choose files to upload').setInputFiles(files.second);
  const choice = upload.getByRole('group', { name: 'What to do with Defence.pdf' });
  await expect(choice.getByRole('radio', { name: 'Upload as a new version' })).toBeChecked();
  await checkA11y(page, 'versions-upload-conflict');
  await shotThemes(page, 'versions-upload-conflict');
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('All 1 files uploaded successfully!')).toBeVisible();
  await expect(upload).toBeHidden({ timeout: 5_000 });
  // Still one file of that name.
  await expect(contents().getByRole('row', { name: 'File Defence.pdf' })).toHaveCount(1);
});

test('the versions list shows 1 and 2; version 1 downloads intact and is restored as version 3', async () => {
  await openVersions();
  const list = versionsDialog().getByRole('list', { name: 'Versions of Defence.pdf' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const v2 = list.getByRole('listitem', { name: 'Version 2' });
  const v1 = list.getByRole('listitem', { name: 'Version 1' });
  await expect(v2.getByText('Current')).toBeVisible();
  await expect(v1.getByText(`${sha256(files.first).slice(0, 12)}…`)).toBeVisible();
  await checkA11y(page, 'versions-list');
  await shotThemes(page, 'versions-list-1440');

  const downloaded = page.waitForEvent('download');
  await v1.getByRole('button', { name: 'Download version 1' }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe('Defence.pdf');
  expect(sha256((await download.path())!)).toBe(sha256(files.first));

  await v1.getByRole('button', { name: 'Restore version 1' }).click();
  const confirm = v1.getByRole('alertdialog', { name: 'Restore version 1?' });
  await checkA11y(page, 'versions-restore-confirm');
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Version 1 of Defence.pdf restored as version 3.')).toBeVisible();
  const v3 = list.getByRole('listitem', { name: 'Version 3' });
  await expect(v3.getByText('Current')).toBeVisible();
  await expect(v3.getByText('restored from version 1')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.keyboard.press('Escape');
  await expect(versionsDialog()).toBeHidden();

  // The current file is version 1's bytes again.
  const current = page.waitForEvent('download');
  await contents().getByRole('button', { name: 'Actions for Defence.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Download' }).click();
  expect(sha256((await (await current).path())!)).toBe(sha256(files.first));
});

test('on a phone the versions list fits and keeps every action', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openVersions();
  const list = versionsDialog().getByRole('list', { name: 'Versions of Defence.pdf' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('button', { name: 'Restore version 2' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await checkA11y(page, 'versions-list-phone');
  await shotThemes(page, 'versions-list-390');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1440, height: 900 });
});
