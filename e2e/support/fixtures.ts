import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { waitForCode, waitForLink } from './mail-sink.js';

export const mailDir = () => process.env.E2E_MAIL_DIR!;
export const shotsDir = path.resolve(import.meta.dirname, '../artifacts/screenshots');

/** Screenshots kept as test artifacts, one per screen and theme. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shotsDir, { recursive: true });
  const theme = (await page.evaluate(() => document.documentElement.classList.contains('dark'))) ? 'dark' : 'light';
  await page.screenshot({ path: path.join(shotsDir, `${name}-${theme}.png`), fullPage: true });
}

/** Takes the screenshot in both themes, switching through localStorage and a reload. */
export async function shotBothThemes(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((t) => localStorage.setItem('strongroom.theme', t), theme);
    await page.reload();
    await ready();
    await shot(page, name);
  }
  await page.evaluate(() => localStorage.setItem('strongroom.theme', 'dark'));
}

/** Both themes of what is on screen now, switching the class in place (dialogs stay open). */
export async function shotThemes(p: Page, name: string) {
  // No colour transitions half way through the switch.
  await p.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  for (const dark of [true, false]) {
    await p.evaluate((d) => {
      document.documentElement.classList.toggle('dark', d);
      document.documentElement.style.colorScheme = d ? 'dark' : 'light';
    }, dark);
    await p.waitForTimeout(250);
    await shot(p, name);
  }
  await p.evaluate(() => {
    document.documentElement.classList.toggle('dark', true);
    document.documentElement.style.colorScheme = 'dark';
  });
}

/** An authenticator: each code is for a time step not used before (the server refuses replays). */
export class Authenticator {
  private lastStep = -1;
  constructor(readonly secret: string) {}
  async code(): Promise<string> {
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(this.secret), digits: 6, period: 30 });
    for (;;) {
      const step = Math.floor(Date.now() / 30_000);
      if (step > this.lastStep) {
        this.lastStep = step;
        return totp.generate();
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

export async function fillCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Verification Code').fill(code);
}

/** Password step on /login; answers when the second-factor screen shows. */
export async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your identity' })).toBeVisible();
}

/** Full sign-in with an emailed code. */
export async function signInWithEmail(page: Page, email: string, password: string): Promise<void> {
  await passwordStep(page, email, password);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send Code' }).click();
  const code = await waitForCode(mailDir(), email, since);
  await fillCode(page, code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

export async function signInWithTotp(page: Page, email: string, password: string, auth: Authenticator): Promise<void> {
  await passwordStep(page, email, password);
  await fillCode(page, await auth.code());
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

/** The setup wall after a first sign-in: email as the second factor, until the app shell shows. */
export async function setUpEmailMfa(page: Page, email: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Enhance Your Account Security' })).toBeVisible();
  await page.getByRole('tab', { name: 'Email' }).click();
  const since = Date.now();
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  await fillCode(page, await waitForCode(mailDir(), email, since));
  await page.getByRole('button', { name: 'Verify & Continue' }).click();
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Matters' })).toBeVisible();
}

export { waitForCode, waitForLink };
