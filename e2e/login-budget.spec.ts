import { expect, test } from '@playwright/test';

// The sign-in page is the first thing every user loads, often on a phone: the JavaScript it costs, as sent over
// the wire (compressed), stays within 170 KB. `npm run bench -- login-weight` measures it in detail; this check
// keeps the budget in every test run.
const LOGIN_JS_BUDGET_BYTES = 170 * 1024;

test('the sign-in page sends at most 170 KB of JavaScript', async ({ page }) => {
  const scripts: Promise<{ url: string; bytes: number }>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    scripts.push(request.sizes().then((s) => ({ url: request.url(), bytes: s.responseBodySize })));
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByText('Securely access your legal archive.')).toBeVisible();
  const loaded = await Promise.all(scripts);
  const total = loaded.reduce((sum, s) => sum + s.bytes, 0);
  expect(loaded.length, 'the page loads its scripts').toBeGreaterThan(0);
  expect(total, loaded.map((s) => `${s.url}: ${s.bytes} B`).join('\n')).toBeLessThanOrEqual(LOGIN_JS_BUDGET_BYTES);
});
