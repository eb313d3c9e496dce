import { expect, test, type Page } from '@playwright/test';
import { ADMIN } from './global-setup.js';
import {
  Authenticator,
  checkA11y,
  fillCode,
  mailDir,
  passwordStep,
  setUpEmailMfa,
  shot,
  shotBothThemes,
  signInWithEmail,
  waitForCode,
  waitForLink,
  saveRecoveryCodes,
} from './support/fixtures.js';

// One story, in order: the first administrator signs in, sets up an authenticator, invites colleagues, and
// they join; then a forgotten password is reset.
test.describe.configure({ mode: 'serial' });

let admin: Authenticator;
let adminPage: Page;

test.beforeAll(async ({ browser }) => {
  adminPage = await (await browser.newContext()).newPage();
});
test.afterAll(async () => {
  await adminPage.context().close();
});
const colleague = { email: 'cole@acme.test', name: 'Cole Colleague', password: 'colleague passphrase' };
const guest = { email: 'gus@acme.test', name: 'Gus Guest', password: 'guest passphrase' };

const shellReady = (page: Page) => () =>
  expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();

test('first sign-in goes through the MFA setup wall to the shell', async () => {
  const page = adminPage;
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Securely access your legal archive.')).toBeVisible();
  await shotBothThemes(page, 'login', () => expect(page.getByLabel('Email')).toBeVisible());

  // A wrong password is answered inline.
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Invalid email or password.')).toBeVisible();
  await checkA11y(page, 'login-error');

  await passwordStep(page, ADMIN.email, ADMIN.password);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send Code' }).click();
  const code = await waitForCode(mailDir(), ADMIN.email, since);
  await expect(page.getByLabel('Verification Code')).toBeVisible();
  await shot(page, 'second-factor-email');
  await fillCode(page, code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  await expect(page.getByText('Scan the image with your authenticator app, then enter the 6-digit code below.')).toBeVisible();
  await expect(page.getByRole('img', { name: /QR code/i })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shot(page, 'mfa-setup-wall');
  admin = new Authenticator(secret);
  await fillCode(page, await admin.code());
  await page.getByRole('button', { name: 'Verify & Continue' }).click();
  await saveRecoveryCodes(page);
  await expect(page.getByText('MFA with Authenticator App enabled!')).toBeVisible();
  await shellReady(page)();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await shotBothThemes(page, 'dashboard-shell', () => expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible());
});

test('the shell: theme toggle, avatar menu, navigation, not found', async () => {
  const page = adminPage;
  await page.goto('/');
  await shellReady(page)();
  const html = page.locator('html');
  await expect(html).toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await expect(html).not.toHaveClass(/dark/);
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await expect(html).toHaveClass(/dark/);

  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' }).click();
  await expect(page).toHaveURL(/\/matters$/);
  await expect(page.getByRole('heading', { name: 'Matters', level: 1 })).toBeVisible();
  await checkA11y(page, 'matters-list');
  await page.getByRole('button', { name: 'Notifications' }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
  await checkA11y(page, 'notifications');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu')).toContainText(ADMIN.name);
  await expect(page.getByRole('menu')).toContainText(ADMIN.email);
  await shot(page, 'avatar-menu');
  await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await checkA11y(page, 'settings');

  await page.goto('/no/such/page');
  await expect(page.getByText('The page you are looking for does not exist.')).toBeVisible();
  await shotBothThemes(page, 'not-found', () => expect(page.getByText('The page you are looking for does not exist.')).toBeVisible());
});

test('an admin invites a colleague through the MFA dialog; the colleague joins and signs in', async ({ browser }) => {
  const page = adminPage;
  await page.goto('/');
  await shellReady(page)();
  // The top bar's button (the dashboard's header offers one too).
  await page.getByRole('banner').getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(colleague.email);
  await shot(page, 'invite-dialog');
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  // The organization asks for a fresh code for user management.
  const mfa = page.getByRole('dialog', { name: 'Verification required' });
  await expect(mfa).toBeVisible();
  await shot(page, 'mfa-dialog');
  const since = Date.now();
  await mfa.getByLabel('Verification Code').fill(await admin.code());
  await mfa.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText(`Invitation sent to ${colleague.email}.`)).toBeVisible();
  const link = await waitForLink(mailDir(), colleague.email, since, '/accept-invitation');

  const ctx = await browser.newContext();
  const p2 = await ctx.newPage();
  await p2.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(p2.getByRole('heading', { name: /Join Acme LLP/ })).toBeVisible();
  await expect(p2.getByText(colleague.email)).toBeVisible();
  await shotBothThemes(p2, 'accept-invitation', () => expect(p2.getByLabel('Full Name')).toBeVisible());
  await p2.getByLabel('Full Name').fill(colleague.name);
  await p2.getByLabel('Password').fill(colleague.password);
  await p2.getByRole('button', { name: 'Create Account and Join' }).click();
  await expect(p2.getByText('Welcome! Your account has been created successfully.')).toBeVisible();
  await expect(p2).toHaveURL(/\/login$/);

  // The link works once.
  await p2.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(p2.getByText('Invalid Invitation')).toBeVisible();
  await checkA11y(p2, 'invalid-invitation');

  await signInWithEmail(p2, colleague.email, colleague.password);
  await expect(p2.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  await p2.getByRole('tab', { name: 'Email' }).click();
  const since2 = Date.now();
  await p2.getByRole('button', { name: 'Send Verification Code' }).click();
  await expect(p2.getByText('Verification code sent. Check your inbox.')).toBeVisible();
  await checkA11y(p2, 'mfa-setup-wall-email');
  await fillCode(p2, await waitForCode(mailDir(), colleague.email, since2));
  await p2.getByRole('button', { name: 'Verify & Continue' }).click();
  await expect(p2.getByText('MFA with Email enabled!')).toBeVisible();
  await shellReady(p2)();
  // A user (not admin, no canInviteUsers) has no Invite User button.
  await expect(p2.getByRole('button', { name: 'Invite User' })).toHaveCount(0);
  await ctx.close();
});

test('a guest sees Access Denied outside the shared matters', async ({ browser }) => {
  const page = adminPage;
  await page.goto('/');
  await shellReady(page)();
  // The top bar's button (the dashboard's header offers one too).
  await page.getByRole('banner').getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(guest.email);
  await dialog.getByRole('combobox').click();
  await page.getByRole('option', { name: 'Guest' }).click();
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  const mfa = page.getByRole('dialog', { name: 'Verification required' });
  const since = Date.now();
  await mfa.getByLabel('Verification Code').fill(await admin.code());
  await mfa.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText(`Invitation sent to ${guest.email}.`)).toBeVisible();
  const link = await waitForLink(mailDir(), guest.email, since, '/accept-invitation');

  const ctx = await browser.newContext();
  const p2 = await ctx.newPage();
  await p2.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await p2.getByLabel('Full Name').fill(guest.name);
  await p2.getByLabel('Password').fill(guest.password);
  await p2.getByRole('button', { name: 'Create Account and Join' }).click();
  await expect(p2).toHaveURL(/\/login$/);
  await signInWithEmail(p2, guest.email, guest.password);
  // A guest sets up MFA like everyone, then reads only the matters shared with them: any other page is denied.
  await setUpEmailMfa(p2, guest.email);
  await expect(p2).toHaveURL(/\/matters$/);
  // Settings is theirs (their own profile); the firm's pages are not.
  await p2.goto('/audit-logs');
  await expect(p2.getByText('Access denied. Your role (guest) lacks required permissions.')).toBeVisible();
  await shotBothThemes(p2, 'access-denied', () => expect(p2.getByText(/Access denied/)).toBeVisible());
  await ctx.close();
});

test('logout, then a TOTP sign-in', async () => {
  const page = adminPage;
  await page.goto('/');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/matters');
  await expect(page).toHaveURL(/\/login$/);
  await passwordStep(page, ADMIN.email, ADMIN.password);
  await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
  await shot(page, 'second-factor-totp');
  // A wrong code is refused and the form stays.
  await fillCode(page, '000000');
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('The verification code is invalid or has expired.')).toBeVisible();
  await fillCode(page, await admin.code());
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('Successfully verified. You are now logged in.')).toBeVisible();
  await shellReady(page)();
});

test('a forgotten password is reset from the emailed link', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/password-reset$/);
  await expect(page.getByRole('heading', { name: 'Forgot Password?' })).toBeVisible();
  await shotBothThemes(page, 'forgot-password', () => expect(page.getByLabel('Email')).toBeVisible());
  const since = Date.now();
  await page.getByLabel('Email').fill(colleague.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(colleague.email)).toBeVisible();
  await checkA11y(page, 'password-reset-sent');
  const link = await waitForLink(mailDir(), colleague.email, since, '/password-reset');

  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByRole('heading', { name: 'Set New Password' })).toBeVisible();
  await expect(page.getByText('Must be at least 8 characters long.')).toBeVisible();
  await page.getByLabel('New Password').fill('short');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();
  await shot(page, 'set-new-password');
  await page.getByLabel('New Password').fill('a fresh passphrase');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Your password has been reset successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  await page.getByLabel('Email').fill(colleague.email);
  await page.getByLabel('Password', { exact: true }).fill(colleague.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Invalid email or password.')).toBeVisible();
  await passwordStep(page, colleague.email, 'a fresh passphrase');
});
