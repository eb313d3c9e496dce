import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '@strongroom/contracts';
import {
  Client,
  createOrgWithAdmin,
  createTestApp,
  enrollTotp,
  signInWithEmailCode,
  uniqueEmail,
  type Account,
  type TestApp,
} from './helpers.js';

// Every refusal names a stable code, including the failures of the mail server, which are nobody's fault but
// must still tell the client what happened in a form it can decide on.
let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrgWithAdmin(t);
});
afterAll(() => t.shutdown());

describe('a mail server that refuses', () => {
  it('answers a sign-in code that could not be sent with 503 SERVICE_UNAVAILABLE', async () => {
    const c = new Client(t.app);
    const { userId } = (await c.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password })).json();
    const send = vi.spyOn(t.ctx.mailer, 'send').mockRejectedValueOnce(new Error('connection refused'));
    try {
      const r = await c.post('/_api/auth/mfa-email', { userId });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ error: MSG.emailSendFailed, code: 'SERVICE_UNAVAILABLE' });
      expect(send).toHaveBeenCalledTimes(1);
    } finally {
      send.mockRestore();
    }
  });

  it('answers an invitation whose mail could not be sent with 503 SERVICE_UNAVAILABLE and its own text', async () => {
    const c = await signInWithEmailCode(t, admin);
    await enrollTotp(c);
    // No fresh code asked for, so the mail is the only thing that can fail.
    await t.ctx.db
      .updateTable('featureFlags')
      .set({ enabled: false })
      .where('organizationId', '=', admin.organizationId)
      .where('flagName', '=', 'MFA_USER_MANAGEMENT')
      .execute();
    const send = vi.spyOn(t.ctx.mailer, 'send').mockRejectedValueOnce(new Error('connection refused'));
    try {
      const r = await c.post('/_api/settings/users/invite', { email: uniqueEmail('colleague'), role: 'user' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ error: MSG.invitationMailFailed, code: 'SERVICE_UNAVAILABLE' });
    } finally {
      send.mockRestore();
    }
  });
});
