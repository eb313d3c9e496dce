/**
 * The organizations the security suites probe: each with a TOTP-enrolled administrator (signed in through the
 * real password + code + setup-wall flow), a matter, a folder, a stored file, an open invitation, a pending
 * multipart upload with one stored part, and a pending single PUT. Also fresh throwaway resources for
 * operations whose valid request uses something up (delete, complete, accept, reset, logout ...).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Role } from '@strongroom/contracts';
import { API_TOKEN_PREFIX, API_TOKEN_SCOPES, DEFAULT_PERMISSIONS } from '@strongroom/contracts';
import { createSession, SESSION_COOKIE } from '../../src/features/sessions/index.js';
import { currentTotp, newTotpSecret } from '../../src/features/mfa/totp.js';
import { hashPassword, insertUser } from '../../src/features/users/users.service.js';
import { hashToken, newToken } from '../../src/shared/tokens.js';
import { invitationToken, newOrganizationWithTotp, PASSWORD, systemMfaToken } from '../factories.js';
import { Client, uniqueEmail, waitForCount, type TestApp } from '../helpers.js';
import { startTestIdp, type TestIdp } from '../oidc-provider.js';
import { passkeyOf, type PersonPasskey } from './passkeys.js';

export { PASSWORD };

let ipSeq = 0;
/** A new client address per throwaway client, so per-address limits of one probe never reach another. */
export function freshIp(): string {
  ipSeq += 1;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
}

export type Person = { client: Client; userId: number; publicId: string; email: string; organizationId: string; totpSecret?: string };
type Admin = Person & { totpSecret: string; systemMfaToken: string };

export type OrgWorld = {
  name: string;
  organizationId: string;
  admin: Admin;
  matter: { id: string; name: string };
  folder: { id: string; name: string };
  file: { id: string; name: string; storagePath: string; bytes: Buffer };
  /** A multipart upload with part 1 stored, still open. */
  multipart: { s3Key: string; uploadId: string; fileName: string; etag: string };
  /** A single PUT whose bytes are stored but which is not completed yet. */
  standard: { s3Key: string; fileName: string; fileSize: number };
  invitation: { id: string; token: string; email: string };
  /** An unused undo entry of the admin's (a folder rename). */
  undo: { id: string };
  /** An entry of the matter's recycle bin (a deleted folder). */
  binEntry: { id: string };
  /** An audit entry of the organization everyone in it may see (the matter's creation). */
  auditLogId: string;
  /** A pending approval request of another administrator's (a change of the approval rules). */
  approvalRequest: { id: string };
  /** A live API token of the administrator's, with every scope. */
  apiToken: { id: string; token: string };
  /** A passkey of the administrator's. */
  passkey: PersonPasskey;
};

function ok(res: LightMyRequestResponse, what: string) {
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json();
}

let nameSeq = 0;
export const uniqueName = (prefix: string) => `${prefix} ${++nameSeq}-${Math.random().toString(36).slice(2, 6)}`;

/** A member of the organization, inserted directly, with MFA set up; signed in with a session of its own. */
export async function addPerson(
  t: TestApp,
  organizationId: string,
  role: Role,
  opts: { totp?: boolean; signIn?: boolean } = {},
): Promise<Person> {
  const email = uniqueEmail(role);
  const user = await insertUser(t.ctx.db, {
    organizationId,
    email,
    fullName: `Pat ${role}`,
    passwordHash: await hashPassword(PASSWORD),
    role,
    permissions: DEFAULT_PERMISSIONS[role],
  });
  const totpSecret = opts.totp ? newTotpSecret() : undefined;
  await t.ctx.db
    .updateTable('users')
    .set({ mfaEnabled: true, mfaPrimaryMethod: totpSecret ? 'totp' : 'email', totpSecret: totpSecret ?? null })
    .where('id', '=', user.id)
    .execute();
  const client = new Client(t.app, freshIp());
  if (opts.signIn !== false) await signInDirectly(t, client, user.id);
  return { client, userId: user.id, publicId: user.publicId, email, organizationId, totpSecret };
}

/** Puts a live session for the user in the client's cookie jar (the sign-in flow itself is probed elsewhere). */
async function signInDirectly(t: TestApp, client: Client, userId: number): Promise<void> {
  const user = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const { token } = await t.ctx.db.transaction().execute((trx) => createSession(t.ctx, trx, user, { ip: client.ip, userAgent: 'probe' }));
  client.cookies.set(SESSION_COOKIE, token);
}

/** A client halfway through signing in: password given, second factor not yet. */
export async function pendingSignIn(t: TestApp, person: Person): Promise<Client> {
  const c = new Client(t.app, freshIp());
  ok(await c.post('/_api/auth/login_with_password', { email: person.email, password: PASSWORD }), 'password step');
  return c;
}

/** An emailed sign-in code for a pending client (sent through the real SMTP sink). */
export async function emailedLoginCode(t: TestApp, c: Client, person: Person): Promise<string> {
  const before = t.sink.messages.length;
  ok(await c.post('/_api/auth/mfa-email', { userId: person.userId }), 'send code');
  await waitForCount(t.sink, before + 1);
  return t.sink.lastCode(person.email);
}

/** A live system MFA token for the admin's session, from a TOTP code one step ahead of the last one used. */
function systemToken(admin: Person & { totpSecret: string }, steps = 1): Promise<string> {
  return systemMfaToken(admin, 'MFA_USER_MANAGEMENT', steps);
}

/** The organization's administrator as a firm would set one up: CLI, password, emailed code, TOTP enrolment. */
async function setUpAdmin(t: TestApp, name: string): Promise<Admin> {
  const { client, userId, email, organizationId, totpSecret } = await newOrganizationWithTotp(t, name, freshIp());
  const row = await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', userId).executeTakeFirstOrThrow();
  const admin = { client, userId, publicId: row.publicId, email, organizationId, totpSecret };
  return { ...admin, systemMfaToken: await systemToken(admin) };
}

async function createMatterVia(c: Client) {
  const name = uniqueName('Matter');
  const m = ok(
    await c.post('/_api/matters/create', { matterName: name, clientName: 'Client Co', responsibleAttorney: 'Jane Counsel' }),
    'create matter',
  ).matter;
  return { id: m.id as string, name };
}

export async function createFolderVia(c: Client, matterId: string, parentId: string | null = null) {
  const name = uniqueName('Folder');
  const n = ok(await c.post('/_api/nodes/create', { matterId, parentId, folderName: name }), 'create folder').node;
  return { id: n.id as string, name };
}

/** An unused undo entry: a fresh folder, renamed by the client. */
export async function undoEntryVia(c: Client, matterId: string): Promise<string> {
  const folder = await createFolderVia(c, matterId);
  return ok(await c.post('/_api/nodes/rename', { nodeId: folder.id, newName: uniqueName('Renamed') }), 'rename').undoId as string;
}

/** A recycle bin entry: a fresh folder, deleted by the client. */
export async function binEntryVia(c: Client, matterId: string): Promise<string> {
  const folder = await createFolderVia(c, matterId);
  return ok(await c.post('/_api/nodes/delete', { nodeId: folder.id }), 'delete').binEntryId as string;
}

/** PUT to a presigned local-store URL through the app itself. */
async function putTo(t: TestApp, url: string, bytes: Buffer, headers: Record<string, string> = {}) {
  const u = new URL(url);
  return t.app.inject({
    method: 'PUT',
    url: u.pathname + u.search,
    payload: bytes,
    headers: { ...headers, 'content-length': String(bytes.length) },
  });
}

/** A single PUT presigned and its bytes stored, not yet completed. */
export async function pendingStandardUpload(t: TestApp, c: Client, matterId: string, parentId: string | null, size = 64) {
  const fileName = `${uniqueName('Upload')}.pdf`;
  const bytes = randomBytes(size);
  const signed = ok(
    await c.post('/_api/upload/presigned', { fileName, fileType: 'application/pdf', matterId, parentId, fileSize: size }),
    'presign',
  );
  const put = await putTo(t, signed.url, bytes, signed.headers);
  if (put.statusCode !== 200) throw new Error(`PUT ${put.statusCode} ${put.body}`);
  return {
    s3Key: signed.s3Key as string,
    fileName,
    fileSize: size,
    bytes,
    url: signed.url as string,
    headers: signed.headers as Record<string, string>,
  };
}

/** A fresh file at the matter's root with a second version uploaded over it; answers its id. */
export async function fileWithTwoVersions(t: TestApp, c: Client, matterId: string): Promise<string> {
  const first = await pendingStandardUpload(t, c, matterId, null, 40);
  const body = { fileName: first.fileName, fileType: 'application/pdf', matterId, parentId: null };
  const file = ok(
    await c.post('/_api/upload/multipart-complete', { ...body, s3Key: first.s3Key, fileSize: first.fileSize }),
    'complete',
  ).file;
  const signed = ok(await c.post('/_api/upload/presigned', { ...body, fileSize: 50, onConflict: 'newVersion' }), 'presign version');
  const put = await putTo(t, signed.url, randomBytes(50), signed.headers);
  if (put.statusCode !== 200) throw new Error(`PUT ${put.statusCode} ${put.body}`);
  ok(
    await c.post('/_api/upload/multipart-complete', { ...body, s3Key: signed.s3Key, fileSize: 50, onConflict: 'newVersion' }),
    'complete version',
  );
  return file.id as string;
}

/** A presigned single PUT not yet used (the URL and the headers it must carry). */
export async function presignedPut(c: Client, matterId: string, size = 32) {
  const fileName = `${uniqueName('Put')}.pdf`;
  const signed = ok(
    await c.post('/_api/upload/presigned', { fileName, fileType: 'application/pdf', matterId, parentId: null, fileSize: size }),
    'presign',
  );
  return { url: signed.url as string, headers: signed.headers as Record<string, string>, bytes: randomBytes(size) };
}

/** A multipart upload with part 1 stored. */
export async function openMultipart(t: TestApp, c: Client, matterId: string, parentId: string | null) {
  const fileName = `${uniqueName('Large')}.pdf`;
  const init = ok(
    await c.post('/_api/upload/multipart-init', { fileName, fileType: 'application/pdf', matterId, parentId }),
    'multipart init',
  );
  const part = ok(
    await c.post('/_api/upload/presigned', {
      fileName,
      fileType: 'application/pdf',
      matterId,
      parentId,
      partNumber: 1,
      uploadId: init.uploadId,
      s3Key: init.s3Key,
    }),
    'presign part',
  );
  const put = await putTo(t, part.url, randomBytes(128), part.headers);
  if (put.statusCode !== 200) throw new Error(`part PUT ${put.statusCode} ${put.body}`);
  return { s3Key: init.s3Key as string, uploadId: init.uploadId as string, fileName, etag: String(put.headers.etag ?? '') };
}

async function storedFile(t: TestApp, c: Client, matterId: string, parentId: string | null) {
  const up = await pendingStandardUpload(t, c, matterId, parentId, 300);
  const done = ok(
    await c.post('/_api/upload/multipart-complete', {
      s3Key: up.s3Key,
      fileName: up.fileName,
      fileType: 'application/pdf',
      matterId,
      parentId,
      fileSize: up.fileSize,
    }),
    'complete',
  ).file;
  return { id: done.id as string, name: up.fileName, storagePath: done.storagePath as string, bytes: up.bytes };
}

/** An open invitation whose token is known (inserted as the invite call stores it: only the hash). */
export async function openInvitationRow(t: TestApp, organizationId: string, invitedBy: number, role: Role = 'user') {
  const token = newToken();
  const email = uniqueEmail('invitee');
  const row = await t.ctx.db
    .insertInto('invitations')
    .values({
      organizationId,
      email,
      role,
      tokenHash: hashToken(token),
      invitedBy,
      expiresAt: new Date(Date.now() + 86_400_000),
      acceptedAt: null,
      revokedAt: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, token, email };
}

/** A live password-reset token for a new member of the organization. */
export async function resetTokenFor(t: TestApp, organizationId: string) {
  const person = await addPerson(t, organizationId, 'user', { signIn: false });
  const token = newToken();
  await t.ctx.db
    .insertInto('passwordResetTokens')
    .values({ tokenHash: hashToken(token), userId: person.userId, expiresAt: new Date(Date.now() + 3_600_000), usedAt: null })
    .execute();
  return { token, person };
}

/**
 * A pending approval request by a new administrator of the organization: a change of the approval rules to none,
 * whose approval changes nothing (it is void: no rule was on when it is decided).
 */
export async function pendingApprovalRequest(t: TestApp, organizationId: string): Promise<string> {
  const requester = await addPerson(t, organizationId, 'admin', { signIn: false });
  const row = await t.ctx.db
    .insertInto('approvalRequests')
    .values({
      organizationId,
      action: 'CHANGE_APPROVAL_POLICY',
      requestedBy: requester.userId,
      requestIp: null,
      reason: 'Fewer approvals',
      method: 'POST',
      path: '/_api/settings/approvals',
      parameters: JSON.stringify({ actions: [] }),
      preview: JSON.stringify({
        action: 'CHANGE_APPROVAL_POLICY',
        title: 'Change which actions need a second approver',
        summary: 'The approval rules change as listed.',
        cannotBeUndone: false,
        facts: [{ label: 'Turned off', value: 'Vault a matter' }],
      }),
      touches: JSON.stringify({ policy: '{"actions":["VAULT_MATTER"]}' }),
      expiresAt: new Date(Date.now() + 72 * 3_600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A live API token of a person, written as the create call writes it (hash only), with the scopes given. */
export async function apiTokenOf(
  t: TestApp,
  person: { organizationId: string; userId: number },
  scopes: readonly string[] = API_TOKEN_SCOPES,
): Promise<{ id: string; token: string }> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await t.ctx.db
    .insertInto('apiTokens')
    .values({
      organizationId: person.organizationId,
      userId: person.userId,
      name: `Tool ${++nameSeq}`,
      tokenHash: hashToken(token),
      prefix: token.slice(0, 10),
      scopes: JSON.stringify(scopes),
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}

export async function buildOrg(t: TestApp, name: string): Promise<OrgWorld> {
  const admin = await setUpAdmin(t, name);
  const c = admin.client;
  const matter = await createMatterVia(c);
  const folder = await createFolderVia(c, matter.id);
  const file = await storedFile(t, c, matter.id, folder.id);
  const multipart = await openMultipart(t, c, matter.id, folder.id);
  const standard = await pendingStandardUpload(t, c, matter.id, null);
  const undoId = await undoEntryVia(c, matter.id);
  const binEntryId = await binEntryVia(c, matter.id);
  // The invitation goes through the real invite call (fresh MFA by system token); its token is read from the mail.
  const before = t.sink.messages.length;
  const invitedEmail = uniqueEmail('invited');
  const inv = ok(
    await c.post('/_api/settings/users/invite', { email: invitedEmail, role: 'user', mfaToken: admin.systemMfaToken }),
    'invite',
  );
  const token = await invitationToken(t, invitedEmail, before);
  const log = await t.ctx.db
    .selectFrom('auditLogs')
    .select('id')
    .where('organizationId', '=', admin.organizationId)
    .where('action', '=', 'CREATE_MATTER')
    .where('targetId', '=', matter.id)
    .executeTakeFirstOrThrow();
  return {
    name,
    organizationId: admin.organizationId,
    admin,
    matter,
    folder,
    file,
    multipart,
    standard: { s3Key: standard.s3Key, fileName: standard.fileName, fileSize: standard.fileSize },
    invitation: { id: inv.invitation.id, token, email: invitedEmail },
    undo: { id: undoId },
    binEntry: { id: binEntryId },
    auditLogId: String(log.id),
    approvalRequest: { id: await pendingApprovalRequest(t, admin.organizationId) },
    apiToken: await apiTokenOf(t, admin),
    passkey: await passkeyOf(t, admin),
  };
}

/** Values that exist nowhere: the control group a foreign id's answer is compared with. */
export function randomIds(organizationLike = `org-${randomUUID().slice(0, 8)}`) {
  return {
    uuid: randomUUID(),
    s3Key: `org/${organizationLike}/matters/${randomUUID()}/${randomUUID()}`,
    uploadId: randomUUID(),
    userId: 2_000_000_000 + Math.floor(Math.random() * 100_000_000),
  };
}

export { currentTotp };

let sharedIdp: Promise<TestIdp> | undefined;

/**
 * The organization's single sign-on, set up once through the settings call against an OpenID provider on loopback
 * (shared by the suite); answers the verified domain, so that an address of it signs in with the provider.
 */
export async function ssoDomainOf(t: TestApp, organizationId: string): Promise<{ domain: string; idp: TestIdp }> {
  sharedIdp ??= startTestIdp(`${t.config.appUrl}/_api/auth/sso/callback`, 'probe');
  const idp = await sharedIdp;
  // What the settings call's own probes left: a provider still on, with a domain, serves as it is.
  const row = await t.ctx.db
    .selectFrom('organizationSso')
    .select('enabled')
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  const current = await t.ctx.db
    .selectFrom('organizationSsoDomains')
    .select('domain')
    .where('organizationId', '=', organizationId)
    .orderBy('domain')
    .executeTakeFirst();
  if (row?.enabled && current) return { domain: current.domain, idp };
  const domain = `sso-${randomBytes(4).toString('hex')}.test`;
  const p = await addPerson(t, organizationId, 'admin', { totp: true });
  ok(
    await p.client.post('/_api/settings/sso', {
      displayName: 'Probe IdP',
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      domains: [domain],
      enabled: true,
      jitEnabled: false,
      jitRole: 'user',
      requireSso: false,
      providerMfaCounts: false,
      mfaToken: currentTotp(p.totpSecret!),
    }),
    'single sign-on set up',
  );
  return { domain, idp };
}

/** A person of the organization linked to the provider's subject, written as a link writes it. */
export async function ssoLinkedPerson(t: TestApp, organizationId: string): Promise<Person> {
  const { idp } = await ssoDomainOf(t, organizationId);
  const p = await addPerson(t, organizationId, 'user', { totp: true });
  await t.ctx.db
    .insertInto('userIdentities')
    .values({ organizationId, userId: p.userId, issuer: idp.issuer, subject: `probe-${p.userId}` })
    .execute();
  return p;
}
