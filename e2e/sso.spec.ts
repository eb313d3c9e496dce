import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SSO_MSG } from '@strongroom/contracts';
import { startTestIdp, subjectOf, type TestIdp } from '../server/test/oidc-provider.js';
import { freePort, startFirmServer, type RunningServer } from './support/server.js';
import { answerWithEmailCode, checkA11y, mailDir, setUpEmailMfa, shotThemes, signInWithEmail, waitForCode } from './support/fixtures.js';

// Single sign-on in the browser against a real OpenID provider (oidc-provider on loopback) with its own login and
// consent pages: the administrator sets the provider up in Settings → Security behind a code, links their account
// at the provider's login page, and then signs in from /login with 'Continue with Okta' followed by Strongroom's
// own second factor. A person of the firm's domain with no linked account is refused with the reason, and once
// single sign-on is required /login says so.
test.describe.configure({ mode: 'serial' });

const SETUP_TOKEN = 'e2e-sso-setup-token-0123456789abcdef';
const ADMIN = { email: 'sol@single-sign.test', name: 'Sol Single', password: 'single sign passphrase', firm: 'Single Sign LLP' };
const SUBJECT = subjectOf(ADMIN.email);

let server: RunningServer;
let idp: TestIdp;
let root: string;
let page: Page;
let appUrl: string;

const toast = (text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });
const ssoCard = () => page.getByRole('region', { name: 'Single sign-on' });
const signedIn = () => expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();

/**
 * At the provider's own pages: its login form (any password serves at this test provider; the login is the
 * person's subject there), then its consent page when it asks, until the browser is back at Strongroom.
 */
async function signInAtProvider(subject: string, shotName?: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await expect(page.getByPlaceholder('Enter any login')).toBeVisible();
  if (shotName) await page.screenshot({ path: path.resolve(import.meta.dirname, 'artifacts/screenshots', `${shotName}.png`) });
  await page.getByPlaceholder('Enter any login').fill(subject);
  await page.getByPlaceholder('and password').fill('provider password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  const back = () => page.url().startsWith(`${appUrl}/`);
  await expect.poll(async () => back() || (await consent.isVisible()), { timeout: 30_000 }).toBe(true);
  if (!back()) {
    await consent.click();
    await page.waitForURL((url) => url.origin === appUrl);
  }
}

/** Signs out by ending the browser's cookies, Strongroom's and the provider's, as a new browser would start. */
async function signOut(): Promise<void> {
  await page.context().clearCookies();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-sso-'));
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  idp = await startTestIdp(`${appUrl}/_api/auth/sso/callback`, 'e2e', { loginPages: true });
  ({ server } = await startFirmServer(path.join(root, 'data'), ADMIN, SETUP_TOKEN, { port, env: { SSO_ALLOW_HTTP_LOOPBACK: 'true' } }));
  page = await (await browser.newContext({ baseURL: appUrl, viewport: { width: 1440, height: 900 } })).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
  await idp?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the administrator sets up the provider in Settings → Security behind a code', async () => {
  await page.goto('/login');
  await signInWithEmail(page, ADMIN.email, ADMIN.password);
  await setUpEmailMfa(page, ADMIN.email);
  await page.goto('/settings?tab=security');
  const form = page.getByRole('form', { name: 'Single sign-on settings' });
  await expect(form).toBeVisible();
  await expect(form.getByText(`${appUrl}/_api/auth/sso/callback`)).toBeVisible();
  await form.getByLabel('Provider name').fill('Okta');
  await form.getByLabel('Issuer').fill(idp.issuer);
  await form.getByLabel('Client ID').fill(idp.clientId);
  await form.getByLabel('Client secret').fill(idp.clientSecret);
  await form.getByLabel('Verified email domains').fill('single-sign.test');
  await expect(form.getByRole('switch', { name: 'Single sign-on on' }), 'a new provider is switched on').toBeChecked();
  await expect(form.getByRole('switch', { name: 'Require single sign-on' })).not.toBeChecked();
  await ssoCard().first().scrollIntoViewIfNeeded();
  await shotThemes(page, 'sso-settings');
  await form.getByRole('button', { name: 'Save single sign-on' }).click();
  await answerWithEmailCode(page, ADMIN.email);
  await expect(toast(SSO_MSG.saved)).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('form', { name: 'Single sign-on settings' }).getByText('A secret is stored; leave empty to keep it.'),
  ).toBeVisible();
});

test("the administrator links the account at the provider's own login page", async () => {
  await page.goto('/settings');
  const card = ssoCard();
  await expect(card.getByText('Not linked')).toBeVisible();
  await card.getByRole('link', { name: 'Link Okta' }).click();
  await signInAtProvider(SUBJECT, 'sso-provider-login');
  await expect(page).toHaveURL(/\/settings\?sso_linked=1/);
  await expect(ssoCard().getByText('Okta is linked to your account.')).toBeVisible();
  await expect(ssoCard().getByText('Linked', { exact: true })).toBeVisible();
  await shotThemes(page, 'sso-link-card');
});

test("/login offers 'Continue with Okta' for the firm's address; the provider signs in, then Strongroom's own code", async () => {
  await signOut();
  await page.getByLabel('Email').fill(ADMIN.email);
  const cont = page.getByRole('link', { name: 'Continue with Okta' });
  await expect(cont).toBeVisible();
  await shotThemes(page, 'sso-login');
  await cont.click();
  await signInAtProvider(SUBJECT);
  await expect(page).toHaveURL(/\/login\?sso=second-step/);
  await expect(page.getByRole('heading', { name: 'Verify your identity' })).toBeVisible();
  await checkA11y(page, 'sso-second-step');
  const since = Date.now();
  await page.getByRole('button', { name: 'Send Code' }).click();
  await page.getByLabel('Verification Code').fill(await waitForCode(mailDir(), ADMIN.email, since));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await signedIn();
});

test('another address of the domain, with no linked account, comes back refused with the reason', async () => {
  await signOut();
  await page.getByLabel('Email').fill('nobody@single-sign.test');
  await page.getByRole('link', { name: 'Continue with Okta' }).click();
  await signInAtProvider(subjectOf('nobody@single-sign.test'));
  await expect(page).toHaveURL(/\/login\?sso_error=not_linked/);
  await expect(page.getByText(SSO_MSG.errors.not_linked)).toBeVisible();
  await shotThemes(page, 'sso-login-refused');
  // An address of another domain is offered no provider.
  await page.getByLabel('Email').fill('someone@elsewhere.test');
  await expect(page.getByRole('link', { name: 'Continue with Okta' })).toHaveCount(0);
});

test('with single sign-on required, /login says so, also on a phone', async () => {
  await signOut();
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByRole('link', { name: 'Continue with Okta' }).click();
  await signInAtProvider(SUBJECT);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send Code' }).click();
  await page.getByLabel('Verification Code').fill(await waitForCode(mailDir(), ADMIN.email, since));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await signedIn();
  await page.goto('/settings?tab=security');
  const form = page.getByRole('form', { name: 'Single sign-on settings' });
  await form.getByRole('switch', { name: 'Require single sign-on' }).click();
  await form.getByRole('button', { name: 'Save single sign-on' }).click();
  await answerWithEmailCode(page, ADMIN.email);
  await expect(toast(SSO_MSG.saved)).toBeVisible();

  await signOut();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Email').fill(ADMIN.email);
  await expect(page.getByRole('link', { name: 'Continue with Okta' })).toBeInViewport();
  await expect(
    page.getByText('Your organization signs in with Okta. Administrators may use their password with a recovery code.'),
  ).toBeVisible();
  await shotThemes(page, 'sso-login-required-390');
  await page.setViewportSize({ width: 1440, height: 900 });
});
