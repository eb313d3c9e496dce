import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
// The one SMTP sink of the tests; the browsers' workers read its mail folder.
import { waitForCodeIn as waitForCode, waitForLinkIn as waitForLink } from '../../server/test/smtp-sink.js';

export const mailDir = () => process.env.E2E_MAIL_DIR!;
const shotsDir = path.resolve(import.meta.dirname, '../artifacts/screenshots');

const themeOf = async (page: Page) => ((await page.evaluate(() => document.documentElement.classList.contains('dark'))) ? 'dark' : 'light');

/**
 * Runs axe on what the page shows now and fails on any serious or critical finding, naming the rule, its help
 * text and the elements concerned. Call it once the screen has settled (its content visible).
 */
export async function checkA11y(page: Page, screen: string): Promise<void> {
  const theme = await themeOf(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`).join('\n')}`,
    );
  expect(serious, `accessibility findings on ${screen} (${theme})`).toEqual([]);
}

/** Screenshots kept as test artifacts, one per screen and theme; each screen shot is checked with axe too. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shotsDir, { recursive: true });
  const theme = await themeOf(page);
  await page.screenshot({ path: path.join(shotsDir, `${name}-${theme}.png`), fullPage: true });
  await checkA11y(page, name);
}

/** Resolves once the browser has painted the current styles (two animation frames). */
async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
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

/**
 * A table shows every column at laptop widths: at 1440 and 1280 px its scroll box is no wider than what shows,
 * with a light and dark screenshot at each width. The viewport is put back to 1440 x 900.
 */
export async function expectTableFits(p: Page, table: Locator, name: string) {
  for (const width of [1440, 1280]) {
    await p.setViewportSize({ width, height: 900 });
    await expect(table).toBeVisible();
    const hidden = await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
    expect(hidden, `columns cut off at ${width} px`).toBeLessThanOrEqual(0);
    await shotThemes(p, `${name}-${width}`);
  }
  await p.setViewportSize({ width: 1440, height: 900 });
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
    await painted(p);
    await shot(p, name);
  }
  await p.evaluate(() => {
    document.documentElement.classList.toggle('dark', true);
    document.documentElement.style.colorScheme = 'dark';
  });
}

/**
 * An authenticator. The server accepts a code of the previous, the current or the next 30-second step, and each
 * step only once (a step not newer than the last one used is refused). So each code takes the lowest step still
 * unused among those: the previous one only while at least 10 s of the current step are left (time for the
 * request to arrive within its window), then the current one, then the next one (the time 30 s ahead), instead
 * of waiting for the clock to reach a new step. Only a fourth code within one step waits for the next step.
 */
export class Authenticator {
  private lastStep = -1;
  constructor(
    readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}
  async code(): Promise<string> {
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(this.secret), digits: 6, period: 30 });
    for (;;) {
      const now = this.now();
      const current = Math.floor(now / 30_000);
      const leftMs = (current + 1) * 30_000 - now;
      const candidates = [...(leftMs >= 10_000 ? [current - 1] : []), current, current + 1];
      const step = candidates.find((s) => s > this.lastStep);
      if (step !== undefined) {
        this.lastStep = step;
        return totp.generate({ timestamp: step * 30_000 });
      }
      // Every acceptable step is spent: the next one opens when the clock reaches the next step.
      await new Promise((r) => setTimeout(r, leftMs));
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
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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

/**
 * After an authenticator is enrolled on the setup wall: the ten recovery codes, shown once; ticks 'I have saved
 * these codes' and goes on. Answers the codes.
 */
export async function saveRecoveryCodes(page: Page): Promise<string[]> {
  await expect(page.getByRole('heading', { name: 'Save Your Recovery Codes' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const codes = (await items.allTextContents()).map((c) => c.trim());
  await page.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  return codes;
}

/**
 * The code dialog of a sensitive action answered with an emailed code: 'Send code by email', the code from the
 * mail, then Verify. Codes are mailed at most once in a while (a sign-in's code may have gone moments ago): when
 * the server says to wait, this waits as long as it says and asks again.
 */
export async function answerWithEmailCode(page: Page, email: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByLabel('Verification Code') });
  await expect(dialog).toBeVisible();
  let since = 0;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    since = Date.now();
    const sent = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/_api/auth/mfa-email'));
    await dialog.getByRole('button', { name: 'Send code by email' }).click();
    const res = await sent;
    if (res.status() !== 429) break;
    await page.waitForTimeout(((await res.json()).details.retryAfterSeconds + 1) * 1000);
  }
  await dialog.getByLabel('Verification Code').fill(await waitForCode(mailDir(), email, since));
  await dialog.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(dialog).toBeHidden();
}

export { waitForCode, waitForLink };
