/**
 * Test factories: the people, matters, folders and files a server test starts from, made the way Strongroom makes
 * them (the CLI's organization setup, the sign-in calls, the matters, nodes and upload calls), so a test reads as
 * what a user does. Rows are written directly only where the product has no call yet (legal hold and vault flags)
 * or where the call is what another test exercises (a member who has already set up MFA).
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import type { Permissions, Role } from '@strongroom/contracts';
import { DEFAULT_PERMISSIONS } from '@strongroom/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { vi } from 'vitest';
import { currentTotp, newTotpSecret } from '../src/features/mfa/totp.js';
import { hashPassword, insertUser } from '../src/features/users/users.service.js';
import {
  createOrgWithAdmin,
  enrollTotp,
  nextTotp,
  signInWithEmailCode,
  uniqueEmail,
  type Account,
  type Client,
  type TestApp,
} from './helpers.js';

export const PASSWORD = 'correct horse battery';

export type Member = { client: Client; userId: number; organizationId: string; email: string };

/** The answer's JSON when it has the expected status; otherwise an error that shows the answer. */
export function ok(res: LightMyRequestResponse, status = 200) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** Marks a user as having set up emailed codes, so the setup wall lets them through. */
async function markEmailMfa(t: TestApp, userId: number): Promise<void> {
  await t.ctx.db.updateTable('users').set({ mfaEnabled: true, mfaPrimaryMethod: 'email' }).where('id', '=', userId).execute();
}

/** A member of an organization who has set up email MFA, signed in. */
export async function addMember(
  t: TestApp,
  organizationId: string,
  role: Role,
  permissions: Partial<Permissions> = {},
  name = 'Pat Member',
): Promise<Member> {
  const email = uniqueEmail(role);
  const user = await insertUser(t.ctx.db, {
    organizationId,
    email,
    fullName: name,
    passwordHash: await hashPassword(PASSWORD),
    role,
    permissions: { ...DEFAULT_PERMISSIONS[role], ...permissions },
  });
  await markEmailMfa(t, user.id);
  const client = await signInWithEmailCode(t, { email, password: PASSWORD });
  return { client, userId: user.id, organizationId, email };
}

/** A new organization and its administrator, signed in with MFA (emailed codes) set up. */
export async function newOrganization(t: TestApp, name = 'Acme LLP'): Promise<Member> {
  const admin = await createOrgWithAdmin(t, name);
  await markEmailMfa(t, admin.userId);
  const client = await signInWithEmailCode(t, admin);
  return { client, userId: admin.userId, organizationId: admin.organizationId, email: admin.email };
}

export type TotpMember = Member & { totpSecret: string };

/**
 * A new organization's administrator as a firm sets one up: the CLI, password and emailed code, then TOTP
 * enrolled through the setup wall's calls. The secret gives the codes for later fresh-MFA steps (`nextTotp`).
 */
export async function newOrganizationWithTotp(t: TestApp, name = 'Acme LLP', ip?: string): Promise<TotpMember & { account: Account }> {
  const account = await createOrgWithAdmin(t, name);
  const client = await signInWithEmailCode(t, account, ip);
  const totpSecret = await enrollTotp(client);
  return { client, userId: account.userId, organizationId: account.organizationId, email: account.email, totpSecret, account };
}

/** Another administrator of the organization, signed in, with an authenticator (its secret stored as set up). */
export async function newTotpAdmin(t: TestApp, organizationId: string, name: string): Promise<TotpMember> {
  const m = await addMember(t, organizationId, 'admin', {}, name);
  const totpSecret = newTotpSecret();
  await t.ctx.db.updateTable('users').set({ mfaEnabled: true, mfaPrimaryMethod: 'totp', totpSecret }).where('id', '=', m.userId).execute();
  return { ...m, totpSecret };
}

/** A code the member's authenticator shows now, usable again: the record of the last step used is cleared first. */
export async function freshTotp(t: TestApp, m: TotpMember): Promise<string> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', m.userId).execute();
  return currentTotp(m.totpSecret);
}

/** A system MFA token for the TOTP member's session (the code one step ahead of the last one used). */
export async function systemMfaToken(member: TotpMember, operation = 'MFA_USER_MANAGEMENT', steps = 1): Promise<string> {
  return ok(await member.client.post('/_api/auth/verifySystemMfa', { operation, mfaToken: nextTotp(member.totpSecret, steps) }))
    .systemMfaToken;
}

/** The token of the newest invitation mailed to an address (waits for the mail). */
export async function invitationToken(t: TestApp, email: string, sentBefore: number): Promise<string> {
  return vi.waitFor(
    () => {
      const mail = t.sink.messages.slice(sentBefore).find((m) => JSON.stringify(m).includes(email));
      const token = /token=([A-Za-z0-9_%-]+)/.exec(JSON.stringify(mail ?? ''))?.[1];
      if (!token) throw new Error(`no invitation mail to ${email}`);
      return decodeURIComponent(token);
    },
    { timeout: 5000, interval: 25 },
  );
}

let seq = 0;
export async function createMatter(c: Client, fields: Record<string, unknown> = {}) {
  seq += 1;
  const res = await c.post('/_api/matters/create', {
    matterName: `Matter ${seq}`,
    clientName: 'Client Co',
    responsibleAttorney: 'Jane Counsel',
    ...fields,
  });
  return ok(res).matter as { id: string; version: number; matterNumber: string; [k: string]: unknown };
}

export async function createFolder(c: Client, matterId: string, folderName: string, parentId: string | null = null) {
  return ok(await c.post('/_api/nodes/create', { matterId, parentId, folderName })).node as {
    id: string;
    path: string;
    [k: string]: unknown;
  };
}

export const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Sets the matter's legal hold and vault flags directly (no call sets them yet). */
export async function setMatterFlags(t: TestApp, matterId: string, flags: { legalHold?: boolean; vaulted?: boolean }) {
  await t.ctx.db
    .updateTable('matters')
    .set({
      ...(flags.legalHold !== undefined ? { legalHold: flags.legalHold, holdReason: flags.legalHold ? 'Litigation pending' : null } : {}),
      ...(flags.vaulted !== undefined
        ? { isVaulted: flags.vaulted, status: flags.vaulted ? 'Vaulted' : 'Open', vaultedAt: flags.vaulted ? new Date() : null }
        : {}),
    })
    .where('id', '=', matterId)
    .execute();
}

/**
 * Stores a file through the real flow: presigned URL, PUT (injected into the app's own /_objects routes),
 * then completion. Answers the file node.
 */
export async function uploadFile(
  t: TestApp,
  c: Client,
  matterId: string,
  fileName: string,
  bytes: Buffer,
  parentId: string | null = null,
  fileType = 'application/pdf',
  /** For a name that exists: a new version of that file, or both kept. */
  onConflict?: 'newVersion' | 'keepBoth',
) {
  const conflict = onConflict ? { onConflict } : {};
  const signed = ok(
    await c.post('/_api/upload/presigned', { fileName, fileType, matterId, parentId, fileSize: bytes.length, ...conflict }),
  );
  const url = new URL(signed.url);
  const put = await t.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    payload: bytes,
    headers: { ...signed.headers, 'content-length': String(bytes.length) },
  });
  if (put.statusCode !== 200) throw new Error(`PUT failed ${put.statusCode}: ${put.body}`);
  const done = await c.post('/_api/upload/multipart-complete', {
    s3Key: signed.s3Key,
    fileName,
    fileType,
    matterId,
    parentId,
    fileSize: bytes.length,
    ...conflict,
  });
  return ok(done).file as { id: string; storagePath: string; sha256Hash: string; [k: string]: unknown };
}

/** A port that was free a moment ago (the app's URL must be known before it listens). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function auditActions(
  t: TestApp,
  organizationId: string,
): Promise<Array<{ action: string; targetId: string | null; details: Record<string, unknown> }>> {
  return t.ctx.db
    .selectFrom('auditLogs')
    .select(['action', 'targetId', 'details'])
    .where('organizationId', '=', organizationId)
    .orderBy('seq')
    .execute();
}
