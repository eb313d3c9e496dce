/**
 * API tokens as a firm's script and an attacker use them: created behind a fresh code and shown once, kept as a
 * hash, every validation message, scopes enforced, revocation and expiry at once, a token's use named in the
 * audit log, another organization's ids, administrators seeing and revoking every token, and the rate limit under
 * a burst of concurrent calls.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_LIMITS, API_TOKEN_MSG } from '@strongroom/contracts';
import { Client, createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  createMatter,
  newOrganization,
  newOrganizationWithTotp,
  ok,
  type Member,
  type TotpMember,
  freshTotp,
} from '../../../test/factories.js';
import { apiTokenOf } from '../../../test/probe/world.js';

let t: TestApp;
let admin: TotpMember;
let member: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Scripted Firm LLP');
  member = await addMember(t, admin.organizationId, 'user', {}, 'Max Member');
  other = await newOrganization(t, 'Other Firm LLP');
});
afterAll(() => t.shutdown());

const totp = (m: TotpMember) => freshTotp(t, m);

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

/** A tool's call: no cookies, the token in the Authorization header. */
function tool(token: string) {
  const c = new Client(t.app);
  const headers = { authorization: `Bearer ${token}` };
  return { get: (url: string) => c.get(url, headers), post: (url: string, body: unknown) => c.post(url, body, headers) };
}

describe('creating a token', () => {
  it('needs a fresh code, answers the token once, and keeps only its hash', async () => {
    const body = { name: 'Scanner', scopes: ['files:upload', 'matters:read'], expiresAt: inDays(30) };
    const noCode = await admin.client.post('/_api/settings/api-tokens', body);
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    const made = ok(await admin.client.post('/_api/settings/api-tokens', { ...body, mfaToken: await totp(admin) }));
    expect(made.message).toBe(API_TOKEN_MSG.created);
    expect(made.token).toMatch(/^srt_[A-Za-z0-9_-]{43}$/);
    expect(made.apiToken).toMatchObject({
      name: 'Scanner',
      scopes: ['files:upload', 'matters:read'],
      revokedAt: null,
      owner: { userId: admin.userId },
    });
    const listed = ok(await admin.client.get('/_api/settings/api-tokens'));
    expect(JSON.stringify(listed)).not.toContain(made.token);
    const stored = await t.ctx.db.selectFrom('apiTokens').selectAll().where('id', '=', made.apiToken.tokenId).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(12));
    expect(ok(await tool(made.token).get('/_api/matters/list')).matters).toBeDefined();
  });

  it('refuses bad names, scopes and expiries with their messages', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await admin.client.post('/_api/settings/api-tokens', {
        name: 'Tool',
        scopes: ['audit:read'],
        expiresAt: inDays(10),
        ...body,
      });
      expect(res.statusCode).toBe(400);
      return res.json().error as string;
    };
    expect(await bad({ name: '  ' })).toBe(API_TOKEN_MSG.nameRequired);
    expect(await bad({ name: 'x'.repeat(101) })).toBe(API_TOKEN_MSG.nameTooLong);
    expect(await bad({ scopes: [] })).toBe(API_TOKEN_MSG.scopesRequired);
    expect(await bad({ scopes: ['vault:everything'] })).toBe(API_TOKEN_MSG.invalidScope);
    expect(await bad({ scopes: ['audit:read', 'audit:read'] })).toBe(API_TOKEN_MSG.duplicateScope);
    expect(await bad({ expiresAt: 'next year' })).toBe(API_TOKEN_MSG.expiresAtInvalid);
    expect(await bad({ expiresAt: inDays(-1), mfaToken: await totp(admin) })).toBe(API_TOKEN_MSG.expiresInPast);
    expect(await bad({ expiresAt: inDays(400), mfaToken: await totp(admin) })).toBe(API_TOKEN_MSG.expiresTooLate);
  });
});

describe('using a token', () => {
  it('reaches only the calls of its scopes, and never one that needs a code', async () => {
    const reader = await apiTokenOf(t, admin, ['matters:read']);
    const matter = await createMatter(admin.client);
    expect(ok(await tool(reader.token).get(`/_api/matters/detail?matterId=${matter.id}`)).matter.id).toBe(matter.id);
    const files = await tool(reader.token).post('/_api/upload/presigned', {
      matterId: matter.id,
      fileName: 'a.pdf',
      fileType: 'application/pdf',
      fileSize: 3,
    });
    expect(files.statusCode).toBe(403);
    expect(files.json().error).toBe(API_TOKEN_MSG.missingScope('files:upload'));
    const team = await tool(reader.token).get('/_api/settings/users');
    expect(team.statusCode).toBe(403);
    expect(team.json().error).toBe(API_TOKEN_MSG.notForTokens);
    const all = await apiTokenOf(t, admin);
    for (const [url, body] of [
      ['/_api/vault/start', { matterId: matter.id, retentionYears: 7 }],
      ['/_api/matters/legal-hold', { matterId: matter.id, action: 'apply', reason: 'A hold by a script' }],
      ['/_api/settings/feature-flags', { flagsToUpdate: [{ flagName: 'MFA_VAULT_OPERATIONS', enabled: false }] }],
      ['/_api/settings/users/invite', { email: 'new@firm.test', role: 'admin' }],
      ['/_api/settings/api-tokens', { name: 'More', scopes: ['audit:read'], expiresAt: inDays(5) }],
    ] as const) {
      const res = await tool(all.token).post(url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error, url).toBe(API_TOKEN_MSG.notForTokens);
    }
    const exported = await tool(all.token).get('/_api/audit-logs/export?format=csv');
    expect(exported.statusCode).toBe(403);
  });

  it('is refused at once when revoked, expired, or its person is deactivated', async () => {
    const tok = await apiTokenOf(t, member, ['matters:read']);
    expect((await tool(tok.token).get('/_api/matters/list')).statusCode).toBe(200);
    ok(await member.client.post('/_api/settings/api-tokens/revoke', { tokenId: tok.id }));
    const revoked = await tool(tok.token).get('/_api/matters/list');
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toBe(API_TOKEN_MSG.invalidToken);
    const again = await member.client.post('/_api/settings/api-tokens/revoke', { tokenId: tok.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(API_TOKEN_MSG.alreadyRevoked);

    const old = await apiTokenOf(t, member, ['matters:read']);
    await t.ctx.db
      .updateTable('apiTokens')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('id', '=', old.id)
      .execute();
    expect((await tool(old.token).get('/_api/matters/list')).statusCode).toBe(401);

    expect((await tool('srt_not-a-real-token').get('/_api/matters/list')).statusCode).toBe(401);
    expect((await tool('').get('/_api/matters/list')).statusCode).toBe(401);
  });

  it('uploads a file through the multipart calls, as the curl example in the API docs does', async () => {
    const tok = await apiTokenOf(t, admin, ['files:upload']);
    const matter = await createMatter(admin.client);
    const bytes = Buffer.concat([Buffer.alloc(10 * 1024 * 1024, 7), Buffer.from('end of exhibit')]);
    const file = { fileName: 'Exhibit-14.pdf', fileType: 'application/pdf', matterId: matter.id, fileSize: bytes.length };
    const init = ok(await tool(tok.token).post('/_api/upload/multipart-init', file));
    const parts: { ETag: string; PartNumber: number }[] = [];
    // Parts of 10 MiB, the last one shorter: each part's URL is signed for its exact length.
    const size = 10 * 1024 * 1024;
    for (let n = 1, at = 0; at < bytes.length; n += 1, at += size) {
      const signed = ok(
        await tool(tok.token).post('/_api/upload/presigned', { ...file, partNumber: n, uploadId: init.uploadId, s3Key: init.s3Key }),
      );
      const url = new URL(signed.url);
      const chunk = bytes.subarray(at, at + size);
      const put = await t.app.inject({
        method: 'PUT',
        url: url.pathname + url.search,
        payload: chunk,
        headers: { 'content-length': String(chunk.length) },
      });
      expect(put.statusCode).toBe(200);
      parts.push({ ETag: String(put.headers.etag), PartNumber: n });
    }
    const done = ok(
      await tool(tok.token).post('/_api/upload/multipart-complete', { ...file, s3Key: init.s3Key, uploadId: init.uploadId, parts }),
    );
    expect(done.file.sha256Hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    const uploaded = await t.ctx.db
      .selectFrom('auditLogs')
      .select('details')
      .where('organizationId', '=', admin.organizationId)
      .where('action', '=', 'UPLOAD_FILE')
      .where('targetId', '=', done.file.id)
      .executeTakeFirstOrThrow();
    expect(uploaded.details).toMatchObject({ apiTokenId: tok.id });
  });

  it('names the token in the audit entries of what it does', async () => {
    const tok = await apiTokenOf(t, admin, ['files:upload', 'matters:read']);
    const matter = await createMatter(admin.client);
    ok(await tool(tok.token).post('/_api/nodes/create', { matterId: matter.id, parentId: null, folderName: 'From the scanner' }));
    ok(await tool(tok.token).get('/_api/search/documents?q=scanner'));
    const entries = await t.ctx.db
      .selectFrom('auditLogs')
      .select(['action', 'actorId', 'details'])
      .where('organizationId', '=', admin.organizationId)
      .where('action', 'in', ['CREATE_FOLDER', 'SEARCH'])
      .orderBy('seq', 'desc')
      .limit(2)
      .execute();
    expect(entries.map((e) => e.action).sort()).toEqual(['CREATE_FOLDER', 'SEARCH']);
    for (const e of entries) {
      expect(e.actorId).toBe(admin.userId);
      expect(e.details).toMatchObject({ apiTokenId: tok.id });
    }
  });

  it("never reaches another organization's rows, and is not taken with a session cookie", async () => {
    const tok = await apiTokenOf(t, admin, ['matters:read', 'files:read']);
    const theirs = await createMatter(other.client);
    const res = await tool(tok.token).get(`/_api/matters/detail?matterId=${theirs.id}`);
    expect(res.statusCode).toBe(404);
    const both = await admin.client.get('/_api/matters/list', { authorization: `Bearer ${tok.token}` });
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toBe(API_TOKEN_MSG.tokenAndSession);
  });

  it(`allows ${API_TOKEN_LIMITS.callsPerMinute} calls a minute, however they arrive`, async () => {
    const tok = await apiTokenOf(t, member, ['matters:read']);
    const burst = API_TOKEN_LIMITS.callsPerMinute + 25;
    const answers = await Promise.all(Array.from({ length: burst }, () => tool(tok.token).get('/_api/matters/clients/suggestions?q=a')));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(API_TOKEN_LIMITS.callsPerMinute);
    expect(codes.filter((c) => c === 429)).toHaveLength(25);
  });
});

describe('who sees and revokes tokens', () => {
  it('members see their own; administrators every token of the organization, and revoke any', async () => {
    const mine = await apiTokenOf(t, member, ['audit:read']);
    const adminsOwn = await apiTokenOf(t, admin, ['audit:read']);
    const memberList = ok(await member.client.get('/_api/settings/api-tokens')).tokens as { tokenId: string }[];
    expect(memberList.map((k) => k.tokenId)).toContain(mine.id);
    expect(memberList.map((k) => k.tokenId)).not.toContain(adminsOwn.id);
    const notTheirs = await member.client.post('/_api/settings/api-tokens/revoke', { tokenId: adminsOwn.id });
    expect(notTheirs.statusCode).toBe(404);
    const adminList = ok(await admin.client.get('/_api/settings/api-tokens')).tokens as { tokenId: string }[];
    expect(adminList.map((k) => k.tokenId)).toEqual(expect.arrayContaining([mine.id, adminsOwn.id]));
    const revoked = ok(await admin.client.post('/_api/settings/api-tokens/revoke', { tokenId: mine.id }));
    expect(revoked.apiToken.revokedAt).not.toBeNull();
    expect((await tool(mine.token).get('/_api/audit-logs/list')).statusCode).toBe(401);
  });

  it("another organization's token id answers 404, as a malformed one answers 400", async () => {
    const mine = await apiTokenOf(t, admin, ['audit:read']);
    const foreign = await other.client.post('/_api/settings/api-tokens/revoke', { tokenId: mine.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(API_TOKEN_MSG.notFound);
    const bad = await other.client.post('/_api/settings/api-tokens/revoke', { tokenId: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(API_TOKEN_MSG.invalidTokenId);
  });
});
