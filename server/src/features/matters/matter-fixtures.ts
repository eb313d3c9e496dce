/**
 * Test support for matters, nodes and uploads: members with chosen roles and permissions (MFA already set up,
 * so they pass the setup wall), matters and folders made through the API, files stored through the real
 * presigned-URL flow. Used by *.test.ts only.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import type { Permissions, Role } from '@strongroom/contracts';
import { DEFAULT_PERMISSIONS } from '@strongroom/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { Client, createOrgWithAdmin, signInWithEmailCode, uniqueEmail, type TestApp } from '../../../test/helpers.js';
import { hashPassword } from '../users/users.service.js';
import { insertUser } from '../users/users.repository.js';

export const PASSWORD = 'correct horse battery';

export type Member = { client: Client; userId: number; organizationId: string; email: string };

/** A member of an organization who has set up email MFA, signed in. */
export async function addMember(t: TestApp, organizationId: string, role: Role, permissions: Partial<Permissions> = {}, name = 'Pat Member'): Promise<Member> {
  const email = uniqueEmail(role);
  const user = await insertUser(t.ctx.db, {
    organizationId,
    email,
    fullName: name,
    passwordHash: await hashPassword(PASSWORD),
    role,
    permissions: { ...DEFAULT_PERMISSIONS[role], ...permissions },
  });
  await t.ctx.db.updateTable('users').set({ mfaEnabled: true, mfaPrimaryMethod: 'email' }).where('id', '=', user.id).execute();
  const client = await signInWithEmailCode(t, { email, password: PASSWORD });
  return { client, userId: user.id, organizationId, email };
}

/** A new organization and its administrator, signed in with MFA set up. */
export async function newOrganization(t: TestApp, name = 'Acme LLP'): Promise<Member> {
  const admin = await createOrgWithAdmin(t, name);
  await t.ctx.db.updateTable('users').set({ mfaEnabled: true, mfaPrimaryMethod: 'email' }).where('id', '=', admin.userId).execute();
  const client = await signInWithEmailCode(t, admin);
  return { client, userId: admin.userId, organizationId: admin.organizationId, email: admin.email };
}

export function ok(res: LightMyRequestResponse, status = 200) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
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
  return ok(await c.post('/_api/nodes/create', { matterId, parentId, folderName })).node as { id: string; path: string; [k: string]: unknown };
}

export const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Sets the matter's legal hold and vault flags directly, as the later issue's calls will. */
export async function setMatterFlags(t: TestApp, matterId: string, flags: { legalHold?: boolean; vaulted?: boolean }) {
  await t.ctx.db
    .updateTable('matters')
    .set({
      ...(flags.legalHold !== undefined ? { legalHold: flags.legalHold, holdReason: flags.legalHold ? 'Litigation pending' : null } : {}),
      ...(flags.vaulted !== undefined ? { isVaulted: flags.vaulted, status: flags.vaulted ? 'Vaulted' : 'Open', vaultedAt: flags.vaulted ? new Date() : null } : {}),
    })
    .where('id', '=', matterId)
    .execute();
}

/**
 * Stores a file through the real flow: presigned URL, PUT (injected into the app's own /_objects routes),
 * then completion. Answers the file node.
 */
export async function uploadFile(t: TestApp, c: Client, matterId: string, fileName: string, bytes: Buffer, parentId: string | null = null, fileType = 'application/pdf') {
  const signed = ok(await c.post('/_api/upload/presigned', { fileName, fileType, matterId, parentId, fileSize: bytes.length }));
  const url = new URL(signed.url);
  const put = await t.app.inject({ method: 'PUT', url: url.pathname + url.search, payload: bytes, headers: { ...signed.headers, 'content-length': String(bytes.length) } });
  if (put.statusCode !== 200) throw new Error(`PUT failed ${put.statusCode}: ${put.body}`);
  const done = await c.post('/_api/upload/multipart-complete', { s3Key: signed.s3Key, fileName, fileType, matterId, parentId, fileSize: bytes.length });
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

export async function auditActions(t: TestApp, organizationId: string): Promise<Array<{ action: string; targetId: string | null; details: Record<string, unknown> }>> {
  return t.ctx.db
    .selectFrom('auditLogs')
    .select(['action', 'targetId', 'details'])
    .where('organizationId', '=', organizationId)
    .orderBy('seq')
    .execute();
}
