import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { Client, createTestApp, type TestApp } from '../../../test/helpers.js';
import { AppError } from '../../shared/errors.js';
import { createOrganizationFromCli, prepareSetupToken } from './setup.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.shutdown());

const body = (setupToken: string) => ({
  setupToken,
  organizationName: 'First Firm LLP',
  adminName: 'Fay First',
  adminEmail: 'fay@first.test',
  adminPassword: 'first password',
});

describe('first run', () => {
  it('says setup is needed, refuses a wrong token, creates the organization once', async () => {
    const c = new Client(t.app);
    expect((await c.get('/_api/setup/status')).json()).toEqual({ needsSetup: true });
    const token = (await prepareSetupToken(t.ctx))!;
    expect(token.length).toBeGreaterThan(20);
    const wrong = await c.post('/_api/setup', body('wrong-token'));
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toBe(MSG.setupTokenInvalid);
    expect((await c.post('/_api/setup', { ...body(token), organizationName: 'F' })).json().error).toBe(MSG.firmNameRequired);
    // Several setup requests at once: exactly one makes the organization, the others are told it exists.
    const tries = await Promise.all(Array.from({ length: 5 }, () => new Client(t.app).post('/_api/setup', body(token))));
    expect(tries.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of tries.filter((r) => r.statusCode === 409)) {
      expect(r.json()).toEqual({ error: MSG.setupDone, code: 'CONFLICT_ERROR', details: { reason: 'ALREADY_SET_UP' } });
    }
    const ok = tries.find((r) => r.statusCode === 200)!;
    expect(ok.json()).toMatchObject({ organizationId: expect.any(String), userId: expect.any(Number) });
    expect((await c.get('/_api/setup/status')).json()).toEqual({ needsSetup: false });
    const again = await c.post('/_api/setup', body(token));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: MSG.setupDone, code: 'CONFLICT_ERROR', details: { reason: 'ALREADY_SET_UP' } });
    const flags = await t.ctx.db
      .selectFrom('featureFlags')
      .select(['flagName', 'enabled'])
      .where('organizationId', '=', ok.json().organizationId)
      .execute();
    expect(flags).toHaveLength(6);
    expect(await prepareSetupToken(t.ctx)).toBeNull();
    const login = await c.post('/_api/auth/login_with_password', { email: 'fay@first.test', password: 'first password' });
    expect(login.statusCode).toBe(200);
  });

  it('refuses a second organization whose administrator already has an account, and keeps nothing of it', async () => {
    const before = await t.ctx.db.selectFrom('organizations').select('id').execute();
    const refused = await createOrganizationFromCli(t.ctx.db, {
      name: 'Second Firm',
      adminName: 'Fay Again',
      adminEmail: 'fay@first.test',
      adminPassword: 'second password',
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      statusCode: 409,
      code: 'CONFLICT_ERROR',
      message: MSG.invitationAccountExists,
      details: { reason: 'ACCOUNT_EXISTS', field: 'adminEmail' },
    });
    expect(await t.ctx.db.selectFrom('organizations').select('id').execute()).toEqual(before);
  });
});
