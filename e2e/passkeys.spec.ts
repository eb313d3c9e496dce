import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { freePort, startFirmServer, type RunningServer } from './support/server.js';
import { answerWithEmailCode, passwordStep, setUpEmailMfa, shotThemes, signInWithEmail } from './support/fixtures.js';

// Passkeys in Chromium with the DevTools protocol's virtual authenticator (a platform authenticator that keeps
// discoverable credentials and verifies the user): adding one in Settings behind a code, signing in with the
// password and the passkey as the second factor, passwordless sign-in refused until an administrator allows it
// with a passkey step-up, a cloned credential whose counter went back refused, and removing the passkey with a code.
// WebAuthn refuses an IP address as the relying party, so this Strongroom is addressed as localhost.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-passkeys-setup-token-0123456789abcdef';
const ADMIN = { email: 'pia@passkeys.test', name: 'Pia Passkey', password: 'passkeys passphrase', firm: 'Keyed & Partners' };

let server: RunningServer;
let root: string;
let page: Page;
let cdp: CDPSession;
let authenticatorId: string;

const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
const passkeysCard = () => page.getByRole('region', { name: 'Passkeys' });
const signedIn = () => expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();

/** Signs out by ending the browser's cookies, as a new browser would start. */
async function signOut(): Promise<void> {
  await page.context().clearCookies();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-passkeys-'));
  const port = await freePort();
  const appUrl = `http://localhost:${port}`;
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN, { port, host: 'localhost' }));
  page = await (await browser.newContext({ baseURL: appUrl, viewport: { width: 1440, height: 900 } })).newPage();
  cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the admin adds a passkey in Settings behind a code', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  await page.goto('/settings');
  await expect(passkeysCard().getByText('No passkeys yet')).toBeVisible();
  await passkeysCard().getByRole('button', { name: 'Add passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Give the passkey a name.')).toBeVisible();
  await dialog.getByLabel('Passkey name').fill('Work laptop');
  await shotThemes(page, 'passkeys-add');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await answerWithEmailCode(page, ADMIN.email);
  await expect(toast('Passkey added.')).toBeVisible();
  const row = passkeysCard().getByTestId('passkey-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Work laptop');
  await expect(row).toContainText('Never used');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  await shotThemes(page, 'passkeys-card');
  // A phone's width: the card's rows wrap, nothing is cut off.
  await page.setViewportSize({ width: 390, height: 844 });
  await passkeysCard().scrollIntoViewIfNeeded();
  await expect(passkeysCard().getByRole('button', { name: 'Remove passkey Work laptop' })).toBeInViewport();
  await shotThemes(page, 'passkeys-card-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('signing in with the password and the passkey as the second factor', async () => {
  await signOut();
  await passwordStep(page, ADMIN.email, ADMIN.password);
  const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
  await expect(usePasskey).toBeVisible();
  await shotThemes(page, 'passkeys-second-factor');
  await usePasskey.click();
  await signedIn();
  await page.goto('/settings');
  await expect(passkeysCard().getByTestId('passkey-row')).toContainText('Last used');
});

test('passwordless sign-in is refused until the admin allows it with a passkey step-up', async () => {
  await signOut();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('Your organization does not allow signing in with a passkey alone.')).toBeVisible();
  await shotThemes(page, 'passkeys-login-refused');

  await passwordStep(page, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await signedIn();
  await page.goto('/settings');
  const allow = passkeysCard().getByRole('switch', { name: 'Allow passwordless sign-in with a passkey' });
  await expect(allow).toHaveAttribute('aria-checked', 'false');
  await allow.click();
  // The step-up dialog offers the passkey: its assertion buys the token the change then carries.
  const dialog = page.getByRole('dialog').filter({ has: page.getByLabel('Verification Code') });
  await expect(dialog.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
  await shotThemes(page, 'passkeys-step-up');
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast('Passkey sign-in setting saved.')).toBeVisible();
  await expect(allow).toHaveAttribute('aria-checked', 'true');

  await signOut();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await signedIn();
});

test('a cloned credential whose counter went back is refused', async () => {
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  const original = credentials[0]!;
  expect(original.signCount).toBeGreaterThan(1);
  // The copy: the same key, with a counter behind the one the server has seen.
  await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: original.credentialId });
  await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...original, signCount: 0 } });
  await signOut();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('This passkey was refused: its signature counter went back')).toBeVisible();
  await shotThemes(page, 'passkeys-clone-refused');
});

test('the passkey is removed with a code; the emailed code still signs in', async () => {
  await signOut();
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await signedIn();
  await page.goto('/settings');
  await passkeysCard().getByRole('button', { name: 'Remove passkey Work laptop' }).click();
  await answerWithEmailCode(page, ADMIN.email);
  await expect(toast('Passkey removed.')).toBeVisible();
  await expect(passkeysCard().getByText('No passkeys yet')).toBeVisible();
  await signOut();
  await passwordStep(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('button', { name: 'Send Code' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
});
