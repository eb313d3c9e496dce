import { expect, test } from '@playwright/test';
import { matchTotpStep } from '../server/src/features/mfa/totp.js';
import { Authenticator } from './support/fixtures.js';

// The e2e authenticator hands out codes without waiting for the clock: each must be one the server accepts at
// that moment, for a step newer than the last one used (the server refuses a step twice).
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const STEP = 30_000;

test('three codes within one step, each accepted by the server and each for a newer step', async () => {
  const at = 1_800_000_000_000 - (1_800_000_000_000 % STEP) + 5_000; // 25 s left in the step
  const auth = new Authenticator(SECRET, () => at);
  const steps: (number | null)[] = [];
  for (let i = 0; i < 3; i += 1) steps.push(matchTotpStep(SECRET, await auth.code(), at));
  const current = Math.floor(at / STEP);
  expect(steps).toEqual([current - 1, current, current + 1]);
});

test('near the end of a step the previous one is skipped: it could expire before the code arrives', async () => {
  const at = 1_800_000_000_000 - (1_800_000_000_000 % STEP) + 25_000; // 5 s left
  const auth = new Authenticator(SECRET, () => at);
  const current = Math.floor(at / STEP);
  expect(matchTotpStep(SECRET, await auth.code(), at)).toBe(current);
  // Accepted even if it arrives after the step has changed.
  expect(matchTotpStep(SECRET, await auth.code(), at + 10_000)).toBe(current + 1);
});
