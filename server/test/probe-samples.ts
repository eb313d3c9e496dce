/**
 * One valid request per published operation, keyed "METHOD /path" as GET /_api/openapi.json lists it, shared
 * by the input fuzz (fuzz.test.ts) and the tenant probes (tenant-probe.test.ts). Both suites fail on an
 * operation that has no entry here, so a new endpoint is probed from its first day: add its entry with
 * - build: a request that succeeds for the organization `me` (fresh throwaway rows where the call uses them up);
 * - idProbes: which inputs name rows of an organization, and which kind of row (another organization's value
 *   of that kind must answer exactly as a value that exists nowhere); `notIds` for id-looking inputs that are
 *   not looked up in an organization, with the reason.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_WEB_DIST } from '../src/app.js';
import type { Role } from '@strongroom/contracts';
import { systemMfaToken } from './factories.js';
import { Client, type TestApp } from './helpers.js';
import type { ProbeRequest } from './probe/request.js';
import {
  addPerson,
  createFolderVia,
  currentTotp,
  emailedLoginCode,
  fileWithTwoVersions,
  freshIp,
  openInvitationRow,
  openMultipart,
  PASSWORD,
  pendingSignIn,
  pendingStandardUpload,
  apiTokenOf,
  pendingApprovalRequest,
  ssoDomainOf,
  ssoLinkedPerson,
  presignedPut,
  randomIds,
  resetTokenFor,
  undoEntryVia,
  binEntryVia,
  uniqueName,
  type OrgWorld,
} from './probe/world.js';
import { allowPasskeySignIn, passkeyOf } from './probe/passkeys.js';
import { SoftAuthenticator } from './soft-authenticator.js';

type ProbeEnv = { t: TestApp; me: OrgWorld; role?: Role };

/** Kinds of row an id input can name; `idValue` gives an organization's value of each. */
export type IdKind =
  | 'matterId'
  | 'folderId'
  | 'fileId'
  | 'multipartS3Key'
  | 'multipartUploadId'
  | 'standardS3Key'
  | 'userId'
  | 'userPublicId'
  | 'invitationId'
  | 'undoId'
  | 'binEntryId'
  | 'auditLogId'
  | 'approvalRequestId'
  | 'apiTokenId'
  | 'passkeyId'
  | 'organizationId';

export type IdProbe = {
  /** Passed to build, for operations with more than one kind of valid request. */
  variant?: string;
  /** Inputs replaced together: "body.nodeId" / "query.matterId" → the kind of row. */
  set: Record<string, IdKind>;
};

export type OperationSample = {
  build(env: ProbeEnv, variant?: string): Promise<ProbeRequest>;
  /** The valid request's answer when it is not 2xx, and why. */
  expectStatus?: { status: number; why: string };
  idProbes: IdProbe[];
  notIds?: Record<string, string>;
  /** For a route registered only in some setups: whether this app should publish it. */
  publishedWhen?: { check(t: TestApp): boolean; why: string };
};

export function idValue(w: OrgWorld, kind: IdKind): string | number {
  switch (kind) {
    case 'matterId':
      return w.matter.id;
    case 'folderId':
      return w.folder.id;
    case 'fileId':
      return w.file.id;
    case 'multipartS3Key':
      return w.multipart.s3Key;
    case 'multipartUploadId':
      return w.multipart.uploadId;
    case 'standardS3Key':
      return w.standard.s3Key;
    case 'userId':
      return w.admin.userId;
    case 'userPublicId':
      return w.admin.publicId;
    case 'invitationId':
      return w.invitation.id;
    case 'undoId':
      return w.undo.id;
    case 'binEntryId':
      return w.binEntry.id;
    case 'auditLogId':
      return w.auditLogId;
    case 'approvalRequestId':
      return w.approvalRequest.id;
    case 'apiTokenId':
      return w.apiToken.id;
    case 'passkeyId':
      return w.passkey.id;
    case 'organizationId':
      return w.organizationId;
  }
}

/** A value of the kind that names no row anywhere. */
export function nowhereValue(kind: IdKind): string | number {
  const r = randomIds();
  if (kind === 'multipartS3Key' || kind === 'standardS3Key') return r.s3Key;
  if (kind === 'userId') return r.userId;
  if (kind === 'auditLogId') return String(r.userId);
  return r.uuid;
}

const fresh = (t: TestApp) => new Client(t.app, freshIp());

const vaultedMatters = new WeakMap<OrgWorld, Promise<string>>();
/** A vaulted matter of the organization (one per world): created, then marked vaulted as the vault start marks it. */
function vaultedMatterOf(t: TestApp, me: OrgWorld): Promise<string> {
  let id = vaultedMatters.get(me);
  if (!id) {
    id = (async () => {
      const res = await me.admin.client.post('/_api/matters/create', {
        matterName: uniqueName('Vaulted'),
        clientName: 'Client Co',
        responsibleAttorney: 'Jane Counsel',
      });
      const matterId = (res.json() as { matter: { id: string } }).matter.id;
      const now = new Date();
      await t.ctx.db
        .updateTable('matters')
        .set({
          isVaulted: true,
          status: 'Vaulted',
          vaultedAt: now,
          retentionExpiresAt: new Date(now.getTime() + 7 * 365 * 86_400_000),
          legalHold: true,
        })
        .where('id', '=', matterId)
        .execute();
      return matterId;
    })();
    vaultedMatters.set(me, id);
  }
  return id;
}
/** A fresh vaulted matter, not held, whose retention ends in ten days, waiting in the disposition review. */
async function queuedMatterOf(t: TestApp, me: OrgWorld): Promise<string> {
  const matterId = await freshMatterVia(me.admin.client);
  const now = new Date();
  const ends = new Date(now.getTime() + 10 * 86_400_000);
  await t.ctx.db
    .updateTable('matters')
    .set({ isVaulted: true, status: 'Vaulted', vaultedAt: now, retentionExpiresAt: ends, legalHold: false })
    .where('id', '=', matterId)
    .execute();
  await t.ctx.db
    .insertInto('dispositionReviews')
    .values({ organizationId: me.organizationId, matterId, retentionExpiresAt: ends })
    .execute();
  return matterId;
}
let numberSeq = 100 + Math.floor(Math.random() * 800);

/** A new matter of the organization, for calls that change a matter for good (legal hold, vault). */
async function freshMatterVia(c: Client): Promise<string> {
  const res = await c.post('/_api/matters/create', {
    matterName: uniqueName('Probe'),
    clientName: 'Client Co',
    responsibleAttorney: 'Jane Counsel',
  });
  return (res.json() as { matter: { id: string } }).matter.id;
}

export const SAMPLES: Record<string, OperationSample> = {
  // ---- Sign-in, session, reset, invitations ----------------------------------------------------------
  'GET /_api/auth/session': { build: async () => ({}), idProbes: [] },
  'GET /.well-known/strongroom-signing-keys': {
    build: async ({ t }) => ({ client: fresh(t) }),
    idProbes: [],
  },
  'POST /_api/auth/login_with_password': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      return { client: fresh(t), body: { email: p.email, password: PASSWORD } };
    },
    idProbes: [],
  },
  'POST /_api/auth/mfa-challenge': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      return { client: await pendingSignIn(t, p), body: { userId: p.userId } };
    },
    idProbes: [{ set: { 'body.userId': 'userId' } }],
  },
  'POST /_api/auth/mfa-email': {
    build: async ({ t, me }, variant) => {
      // 'session': a signed-in user asks for a code for a protected action.
      const p = await addPerson(t, me.organizationId, 'user', { signIn: variant === 'session' });
      return { client: variant === 'session' ? p.client : await pendingSignIn(t, p), body: { userId: p.userId } };
    },
    idProbes: [{ set: { 'body.userId': 'userId' } }, { variant: 'session', set: { 'body.userId': 'userId' } }],
  },
  'POST /_api/auth/mfa-verify-totp': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false, totp: true });
      return { client: await pendingSignIn(t, p), body: { userId: p.userId, token: currentTotp(p.totpSecret!) } };
    },
    idProbes: [{ set: { 'body.userId': 'userId' } }],
  },
  'POST /_api/auth/mfa-verify-email': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      const c = await pendingSignIn(t, p);
      return { client: c, body: { userId: p.userId, token: await emailedLoginCode(t, c, p) } };
    },
    idProbes: [{ set: { 'body.userId': 'userId' } }],
  },
  'POST /_api/auth/logout': {
    build: async ({ t, me }) => ({ client: (await addPerson(t, me.organizationId, 'user')).client }),
    idProbes: [],
  },
  'POST /_api/auth/verifySystemMfa': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return { client: p.client, body: { operation: 'MFA_USER_MANAGEMENT', mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/auth/password-reset': {
    build: async ({ t, me }) => ({
      client: fresh(t),
      body: { email: (await addPerson(t, me.organizationId, 'user', { signIn: false })).email },
    }),
    idProbes: [],
  },
  'POST /_api/auth/password-reset-verify': {
    build: async ({ t, me }) => ({
      client: fresh(t),
      body: { token: (await resetTokenFor(t, me.organizationId)).token, newPassword: 'a brand new passphrase' },
    }),
    idProbes: [],
  },
  'POST /_api/auth/invitation-verify': {
    build: async ({ t, me }) => ({
      client: fresh(t),
      body: { token: (await openInvitationRow(t, me.organizationId, me.admin.userId)).token },
    }),
    idProbes: [],
  },
  'POST /_api/auth/invitation-accept': {
    build: async ({ t, me }) => ({
      client: fresh(t),
      body: {
        token: (await openInvitationRow(t, me.organizationId, me.admin.userId)).token,
        fullName: 'Nova Newcomer',
        password: 'a brand new passphrase',
      },
    }),
    idProbes: [],
  },

  // ---- Settings ----------------------------------------------------------------------------------------
  'POST /_api/settings/mfa-manage': {
    build: async () => ({ body: { operation: 'generate_totp_secret' } }),
    idProbes: [],
  },
  'GET /_api/settings/mfa': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/mfa': {
    build: async () => ({ body: { enable: true, method: 'totp', setup: true } }),
    idProbes: [],
  },
  'POST /_api/settings/mfa/recovery-codes': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { totp: true });
      return { client: p.client, body: { mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/auth/mfa-recovery': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { totp: true });
      const res = await p.client.post('/_api/settings/mfa/recovery-codes', { mfaToken: currentTotp(p.totpSecret!) });
      const recoveryCode = (res.json() as { recoveryCodes: string[] }).recoveryCodes[0]!;
      return { client: await pendingSignIn(t, p), body: { userId: p.userId, recoveryCode } };
    },
    idProbes: [{ set: { 'body.userId': 'userId' } }],
  },
  'GET /_api/settings/profile': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/profile': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user');
      return { client: p.client, body: { fullName: 'Pat Renamed', email: p.email, phoneNumber: '+44 20 7946 0000' } };
    },
    idProbes: [],
  },
  'GET /_api/settings/organization': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/organization': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return {
        client: p.client,
        body: {
          name: me.name,
          primaryContactName: 'Jane Counsel',
          primaryContactEmail: 'jane@firm.test',
          primaryContactPhone: '+44 20 7946 0001',
          mfaToken: currentTotp(p.totpSecret!),
        },
      };
    },
    idProbes: [],
  },
  'GET /_api/settings/retention': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/retention': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return { client: p.client, body: { defaultRetentionYears: 7, mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'GET /_api/settings/feature-flags': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/feature-flags': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return {
        client: p.client,
        body: { flagsToUpdate: [{ flagName: 'enhanced_user_management', enabled: false }], mfaToken: currentTotp(p.totpSecret!) },
      };
    },
    idProbes: [],
    notIds: {
      'body.organizationId': "compared with the caller's own organization (another one is refused as a mismatch), never looked up",
    },
  },
  'POST /_api/settings/password': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user');
      return {
        client: p.client,
        body: { currentPassword: PASSWORD, newPassword: 'another long passphrase', confirmPassword: 'another long passphrase' },
      };
    },
    idProbes: [],
  },
  'POST /_api/settings/users/invite': {
    build: async ({ me }) => ({
      body: { email: `${uniqueName('invitee').replace(/\W+/g, '.')}@firm.test`, role: 'user', mfaToken: me.admin.systemMfaToken },
    }),
    idProbes: [],
  },

  // ---- Team administration -------------------------------------------------------------------------------
  'GET /_api/settings/users': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/users/manage': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      return {
        body: {
          userId: p.publicId,
          changes: { permissions: { canRename: true } },
          updatedBy: 'Probe Admin',
          version: 1,
          timestamp: new Date().toISOString(),
          reason: 'Probe of the manage call',
          mfaToken: me.admin.systemMfaToken,
        },
      };
    },
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }],
  },
  'POST /_api/settings/users/permissions': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      return { body: { userId: p.publicId, permissions: { canDelete: true }, mfaToken: me.admin.systemMfaToken } };
    },
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }],
  },
  'POST /_api/settings/users/role': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      return { body: { userId: p.publicId, newRole: 'guest', reason: 'Now external counsel', mfaToken: me.admin.systemMfaToken } };
    },
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }],
  },
  'POST /_api/settings/users/deactivate': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user');
      return { body: { userId: p.publicId, mfaToken: me.admin.systemMfaToken } };
    },
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }],
  },
  'POST /_api/settings/users/reactivate': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      await t.ctx.db.updateTable('users').set({ isActive: false }).where('id', '=', p.userId).execute();
      return { body: { userId: p.publicId, mfaToken: me.admin.systemMfaToken } };
    },
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }],
  },
  'POST /_api/settings/users/reset-mfa': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false, totp: true });
      return { body: { userId: p.publicId, reason: 'Phone lost on a trip', mfaToken: me.admin.systemMfaToken } };
    },
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }],
  },
  'POST /_api/settings/users/invitations/resend': {
    build: async ({ t, me }) => ({
      body: { invitationId: (await openInvitationRow(t, me.organizationId, me.admin.userId)).id, mfaToken: me.admin.systemMfaToken },
    }),
    idProbes: [{ set: { 'body.invitationId': 'invitationId' } }],
  },
  'POST /_api/settings/users/invitations/revoke': {
    build: async ({ t, me }) => ({ body: { invitationId: (await openInvitationRow(t, me.organizationId, me.admin.userId)).id } }),
    idProbes: [{ set: { 'body.invitationId': 'invitationId' } }],
  },
  'GET /_api/settings/guest-access': {
    build: async ({ t, me }) => ({ query: { userId: (await addPerson(t, me.organizationId, 'guest', { signIn: false })).publicId } }),
    idProbes: [{ set: { 'query.userId': 'userPublicId' } }],
  },
  'POST /_api/settings/guest-access/grant': {
    build: async ({ t, me }) => ({
      body: {
        userId: (await addPerson(t, me.organizationId, 'guest', { signIn: false })).publicId,
        matterId: me.matter.id,
        mfaToken: me.admin.systemMfaToken,
      },
    }),
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }, { set: { 'body.matterId': 'matterId' } }],
  },
  'POST /_api/settings/guest-access/revoke': {
    build: async ({ t, me }) => {
      const guest = await addPerson(t, me.organizationId, 'guest', { signIn: false });
      await me.admin.client.post('/_api/settings/guest-access/grant', {
        userId: guest.publicId,
        matterId: me.matter.id,
        mfaToken: me.admin.systemMfaToken,
      });
      return { body: { userId: guest.publicId, matterId: me.matter.id } };
    },
    idProbes: [{ set: { 'body.userId': 'userPublicId' } }, { set: { 'body.matterId': 'matterId' } }],
  },

  // ---- Client security logs ------------------------------------------------------------------------------
  'POST /_api/security/event-log': {
    build: async ({ me }) => ({
      body: { action: 'VAULT_ACCESS_ATTEMPT', targetId: me.matter.id, details: { page: 'vault', note: 'probe' } },
    }),
    // targetId is the client's own label for its log entry: it is stored, never looked up. Another
    // organization's id must still be answered as any other text, and land in the caller's log only.
    idProbes: [{ set: { 'body.targetId': 'matterId' } }],
  },
  'POST /_api/security/forensic-log': {
    build: async ({ me }) => ({ body: { action: 'viewed privileged memo', targetId: me.file.id, details: { reason: 'probe' } } }),
    idProbes: [{ set: { 'body.targetId': 'fileId' } }],
  },

  // ---- First run -----------------------------------------------------------------------------------------
  'GET /_api/setup/status': {
    build: async () => ({}),
    idProbes: [],
  },
  'POST /_api/setup': {
    build: async ({ t }) => ({
      client: fresh(t),
      body: {
        setupToken: randomUUID(),
        organizationName: 'Second Firm LLP',
        adminName: 'Sam Setup',
        adminEmail: `setup.${randomUUID().slice(0, 8)}@firm.test`,
        adminPassword: PASSWORD,
      },
    }),
    expectStatus: { status: 409, why: 'organizations exist already, so first-run setup is over' },
    idProbes: [],
  },

  // ---- Matters -------------------------------------------------------------------------------------------
  'GET /_api/matters/list': {
    // Guests too: only the matters shared with them (the probes' guest has none: 403 or nothing listed).
    build: async () => ({
      query: {
        search: 'Matter',
        status: 'Open',
        clientName: 'Client Co',
        responsibleLawyer: 'Jane Counsel',
        dateFrom: '2020-01-01',
        dateTo: '2100-12-31',
        sortBy: 'matter_name',
        sortDirection: 'asc',
        page: '1',
        pageSize: '20',
      },
    }),
    idProbes: [],
  },
  'GET /_api/matters/next-number': { build: async () => ({}), idProbes: [] },
  'POST /_api/matters/create': {
    build: async () => ({
      body: {
        matterName: uniqueName('Matter'),
        matterNumber: `MAT-2099-${String(++numberSeq).padStart(4, '0')}`,
        clientName: 'Client Co',
        description: 'Opened by the probe',
        responsibleAttorney: 'Jane Counsel',
      },
    }),
    idProbes: [],
  },
  'POST /_api/matters/update': {
    build: async ({ t, me }) => {
      const m = await t.ctx.db.selectFrom('matters').select('version').where('id', '=', me.matter.id).executeTakeFirstOrThrow();
      return { body: { matterId: me.matter.id, description: `Updated ${randomUUID().slice(0, 6)}`, expectedVersion: m.version } };
    },
    idProbes: [{ set: { 'body.matterId': 'matterId' } }],
  },
  'GET /_api/matters/detail': {
    // Guests too: only the matters shared with them (the probes' guest has none: 403 or nothing listed).
    build: async ({ me }) => ({ query: { matterId: me.matter.id, filesIn: 'root' } }),
    // filesIn: another organization's folder answers as a folder that exists nowhere (the folders, no file).
    idProbes: [{ set: { 'query.matterId': 'matterId' } }, { set: { 'query.filesIn': 'folderId' } }],
  },
  'POST /_api/matters/legal-hold': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      const matterId = await freshMatterVia(me.admin.client);
      return {
        client: p.client,
        body: { matterId, action: 'apply', reason: 'Litigation expected (probe)', mfaToken: currentTotp(p.totpSecret!) },
      };
    },
    idProbes: [{ set: { 'body.matterId': 'matterId' } }],
  },
  'POST /_api/vault/start': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      const matterId = await freshMatterVia(me.admin.client);
      return { client: p.client, body: { matterId, retentionYears: 7, mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [{ set: { 'body.matterId': 'matterId' } }],
  },
  // Guests too: names from the matters shared with them only.
  'GET /_api/matters/clients/suggestions': {
    build: async () => ({ query: { query: 'Cl', limit: '10' } }),
    idProbes: [],
  },
  // Guests too: names from the matters shared with them only.
  'GET /_api/matters/lawyers/suggestions': {
    build: async () => ({ query: { query: 'Ja', limit: '10' } }),
    idProbes: [],
  },
  // Guests too: hits from the matters shared with them only. Variant 'matter': within one matter (matterId).
  'GET /_api/search/documents': {
    build: async ({ me }, variant) => ({
      query: {
        q: 'Ma',
        ...(variant === 'matter' ? { matterId: me.matter.id } : {}),
        ...(variant === 'uploader' ? { uploadedBy: randomUUID() } : {}),
      },
    }),
    idProbes: [
      { variant: 'matter', set: { 'query.matterId': 'matterId' } },
      { variant: 'uploader', set: { 'query.uploadedBy': 'userPublicId' } },
    ],
  },
  'GET /_api/settings/search': { build: async () => ({}), idProbes: [] },
  'GET /_api/approvals/list': { build: async () => ({ query: { status: 'pending' } }), idProbes: [] },
  'GET /_api/approvals/detail': {
    build: async ({ me }) => ({ query: { requestId: me.approvalRequest.id } }),
    idProbes: [{ set: { 'query.requestId': 'approvalRequestId' } }],
  },
  // A fresh request each time: a decision uses it up.
  'POST /_api/approvals/decide': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      const requestId = await pendingApprovalRequest(t, me.organizationId);
      return { client: p.client, body: { requestId, decision: 'reject', reason: 'Not needed', mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [{ set: { 'body.requestId': 'approvalRequestId' } }],
  },
  'GET /_api/settings/approvals': { build: async () => ({}), idProbes: [] },
  'GET /_api/settings/api-tokens': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/api-tokens': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { totp: true });
      const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
      return {
        client: p.client,
        body: { name: uniqueName('Scanner'), scopes: ['files:upload'], expiresAt, mfaToken: currentTotp(p.totpSecret!) },
      };
    },
    idProbes: [],
  },
  // A fresh token each time: revoking uses it up.
  'POST /_api/settings/api-tokens/revoke': {
    build: async ({ t, me }) => ({ body: { tokenId: (await apiTokenOf(t, me.admin)).id } }),
    idProbes: [{ set: { 'body.tokenId': 'apiTokenId' } }],
  },
  'GET /_api/settings/sso': { build: async () => ({}), idProbes: [] },
  // Against the suite's OpenID provider on loopback: the issuer is read by discovery before it is saved.
  'POST /_api/settings/sso': {
    build: async ({ t, me }) => {
      const { idp, domain } = await ssoDomainOf(t, me.organizationId);
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return {
        client: p.client,
        body: {
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
        },
      };
    },
    idProbes: [],
    notIds: { 'body.clientId': 'the client id the provider gave Strongroom, not a row of Strongroom' },
  },
  'GET /_api/settings/sso/identity': { build: async () => ({}), idProbes: [] },
  // A fresh link each time: unlinking uses it up.
  'POST /_api/settings/sso/unlink': {
    build: async ({ t, me }) => {
      const p = await ssoLinkedPerson(t, me.organizationId);
      return { client: p.client, body: { mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/auth/sso/discover': {
    build: async ({ t, me }) => ({ client: fresh(t), body: { email: `someone@${(await ssoDomainOf(t, me.organizationId)).domain}` } }),
    idProbes: [],
  },
  'GET /_api/auth/sso/start': {
    build: async ({ t, me }) => ({ client: fresh(t), query: { email: `someone@${(await ssoDomainOf(t, me.organizationId)).domain}` } }),
    idProbes: [],
    expectStatus: { status: 302, why: 'the browser is sent to the provider' },
  },
  'GET /_api/auth/sso/link': {
    build: async ({ t, me }) => {
      await ssoDomainOf(t, me.organizationId);
      return {};
    },
    idProbes: [],
    expectStatus: { status: 302, why: 'the browser is sent to the provider' },
  },
  // Whatever the provider sends back, the browser is sent on to /login (here with the refusal of a missing state).
  'GET /_api/auth/sso/callback': {
    build: async ({ t }) => ({ client: fresh(t), query: { state: 'unknown-state', code: 'unknown-code' } }),
    idProbes: [],
    expectStatus: { status: 302, why: 'the callback always redirects: to /login with the reason of a refusal' },
  },
  'GET /_api/auth/sso/pending': {
    build: async ({ t, me }) => {
      const p = await ssoLinkedPerson(t, me.organizationId);
      const { idp, domain } = await ssoDomainOf(t, me.organizationId);
      const client = fresh(t);
      idp.loginAs({ sub: `probe-${p.userId}`, email: p.email });
      const started = await client.get(`/_api/auth/sso/start?email=someone%40${domain}`);
      const callback = await idp.authorize(String(started.headers.location));
      await client.get(callback.pathname + callback.search);
      return { client };
    },
    idProbes: [],
  },
  // ---- Passkeys ------------------------------------------------------------------------------------------
  'GET /_api/settings/passkeys': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/passkeys/registration-options': { build: async () => ({ body: {} }), idProbes: [] },
  'POST /_api/settings/passkeys': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { totp: true });
      const options = (await p.client.post('/_api/settings/passkeys/registration-options', {})).json();
      const response = new SoftAuthenticator().register(options);
      return { client: p.client, body: { name: uniqueName('Key'), response, mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/settings/passkeys/rename': {
    build: async ({ me }) => ({ body: { passkeyId: me.passkey.id, name: uniqueName('Key') } }),
    idProbes: [{ set: { 'body.passkeyId': 'passkeyId' } }],
  },
  // A fresh person and passkey each time: removing uses it up.
  'POST /_api/settings/passkeys/remove': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return { client: p.client, body: { passkeyId: (await passkeyOf(t, p)).id, mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [{ set: { 'body.passkeyId': 'passkeyId' } }],
  },
  'GET /_api/settings/passkeys/policy': { build: async () => ({}), idProbes: [] },
  'POST /_api/settings/passkeys/policy': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return { client: p.client, body: { allowPasskeySignIn: false, mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/auth/passkey-challenge': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      await passkeyOf(t, p);
      return { client: await pendingSignIn(t, p), body: { userId: p.userId } };
    },
    idProbes: [{ set: { 'body.userId': 'userId' } }],
  },
  'POST /_api/auth/mfa-verify-passkey': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      const key = await passkeyOf(t, p);
      const c = await pendingSignIn(t, p);
      const options = (await c.post('/_api/auth/passkey-challenge', { userId: p.userId })).json();
      return { client: c, body: { userId: p.userId, response: key.authenticator.assert(options.challenge) } };
    },
    idProbes: [{ set: { 'body.userId': 'userId' } }],
  },
  'POST /_api/auth/passkey-login-options': { build: async ({ t }) => ({ client: fresh(t), body: {} }), idProbes: [] },
  'POST /_api/auth/login_with_passkey': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user', { signIn: false });
      const key = await passkeyOf(t, p);
      await allowPasskeySignIn(t, me.organizationId);
      const c = fresh(t);
      const options = (await c.post('/_api/auth/passkey-login-options', {})).json();
      return { client: c, body: { response: key.authenticator.assert(options.challenge) } };
    },
    idProbes: [],
  },
  'POST /_api/auth/passkey-step-up-options': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user');
      await passkeyOf(t, p);
      return { client: p.client, body: { operation: 'MFA_ORGANIZATION_SETTINGS' } };
    },
    idProbes: [],
  },
  'POST /_api/auth/passkey-step-up': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'user');
      const key = await passkeyOf(t, p);
      const options = (await p.client.post('/_api/auth/passkey-step-up-options', { operation: 'VAULT_MATTER' })).json();
      return { client: p.client, body: { operation: 'VAULT_MATTER', response: key.authenticator.assert(options.challenge) } };
    },
    idProbes: [],
  },

  'POST /_api/settings/approvals': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return { client: p.client, body: { actions: [], mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/settings/search': { build: async () => ({ body: { language: 'english', ocrLanguages: ['eng'] } }), idProbes: [] },
  'POST /_api/settings/search/reindex': {
    // One re-index runs at a time: the one an earlier sample started is taken as finished.
    build: async ({ t, me }) => {
      await t.ctx.db
        .updateTable('searchReindexRuns')
        .set({ finishedAt: new Date() })
        .where('organizationId', '=', me.organizationId)
        .where('finishedAt', 'is', null)
        .execute();
      return { body: {} };
    },
    idProbes: [],
  },
  'GET /_api/search': {
    build: async ({ me }, variant) => ({ query: { q: 'Ma', limit: '10', ...(variant === 'matter' ? { matterId: me.matter.id } : {}) } }),
    idProbes: [{ variant: 'matter', set: { 'query.matterId': 'matterId' } }],
  },

  // ---- Folders and files ---------------------------------------------------------------------------------
  'POST /_api/nodes/create': {
    build: async ({ me }) => ({ body: { matterId: me.matter.id, parentId: me.folder.id, folderName: uniqueName('Folder') } }),
    idProbes: [
      { set: { 'body.matterId': 'matterId' } },
      { set: { 'body.parentId': 'folderId' } },
      { set: { 'body.matterId': 'matterId', 'body.parentId': 'folderId' } },
    ],
  },
  'POST /_api/nodes/rename': {
    build: async ({ me }) => ({
      body: { nodeId: (await createFolderVia(me.admin.client, me.matter.id)).id, newName: uniqueName('Renamed') },
    }),
    idProbes: [{ set: { 'body.nodeId': 'folderId' } }, { set: { 'body.nodeId': 'fileId' } }],
  },
  'POST /_api/nodes/move': {
    build: async ({ me }) => ({ body: { nodeId: (await createFolderVia(me.admin.client, me.matter.id)).id, newParentId: me.folder.id } }),
    idProbes: [{ set: { 'body.nodeId': 'folderId' } }, { set: { 'body.nodeId': 'fileId' } }, { set: { 'body.newParentId': 'folderId' } }],
  },
  'POST /_api/nodes/delete': {
    build: async ({ me }) => ({ body: { nodeId: (await createFolderVia(me.admin.client, me.matter.id)).id } }),
    idProbes: [{ set: { 'body.nodeId': 'folderId' } }, { set: { 'body.nodeId': 'fileId' } }],
  },
  'GET /_api/nodes/bin': {
    // Whoever may see the matter's files; another organization's matter answers 404 like one that does not exist.
    build: async ({ me }) => ({ query: { matterId: me.matter.id } }),
    idProbes: [{ set: { 'query.matterId': 'matterId' } }],
  },
  'POST /_api/nodes/bin/restore': {
    build: async ({ me }) => ({ body: { binEntryId: await binEntryVia(me.admin.client, me.matter.id) } }),
    idProbes: [{ set: { 'body.binEntryId': 'binEntryId' } }],
  },
  'GET /_api/nodes/download-url': {
    // Guests too: only the matters shared with them (the probes' guest has none: 403 or nothing listed).
    build: async ({ me }, variant) => ({ query: { nodeId: me.file.id, ...(variant === 'version' ? { version: '1' } : {}) } }),
    idProbes: [{ set: { 'query.nodeId': 'fileId' } }, { variant: 'version', set: { 'query.nodeId': 'fileId' } }],
  },
  // A file's versions; guests too, for the matters shared with them.
  'GET /_api/nodes/versions': {
    build: async ({ me }) => ({ query: { nodeId: me.file.id } }),
    idProbes: [{ set: { 'query.nodeId': 'fileId' } }],
  },
  // A fresh file with two versions, so version 1 can be restored.
  'POST /_api/nodes/restore-version': {
    build: async ({ t, me }) => ({ body: { nodeId: await fileWithTwoVersions(t, me.admin.client, me.matter.id), versionNumber: 1 } }),
    idProbes: [{ set: { 'body.nodeId': 'fileId' } }],
  },
  'GET /_api/nodes/preview-url': {
    // Guests too, with a view or download grant on the matter (the probes' guest has none: 403 or 404).
    build: async ({ me }) => ({ query: { nodeId: me.file.id } }),
    idProbes: [{ set: { 'query.nodeId': 'fileId' } }],
  },
  'GET /_api/nodes/download-zip': {
    // A folder's ZIP; another organization's folder or matter answers 404 like one that does not exist.
    build: async ({ me }, variant) =>
      ({ query: variant === 'matter' ? { matterId: me.matter.id } : { nodeId: me.folder.id } }) as ProbeRequest,
    idProbes: [{ set: { 'query.nodeId': 'folderId' } }, { variant: 'matter', set: { 'query.matterId': 'matterId' } }],
  },

  // ---- Audit log -----------------------------------------------------------------------------------------
  'GET /_api/audit-logs/list': {
    build: async ({ me }) => ({
      query: {
        page: '1',
        limit: '50',
        'actions[]': 'CREATE_MATTER',
        actorIds: String(me.admin.userId),
        search: 'Matter',
        sortBy: 'action',
        sortDirection: 'asc',
      },
    }),
    idProbes: [],
    notIds: { 'query.actorIds': "a filter on the entries of the caller's own organization: an id of another one matches nothing" },
  },
  'GET /_api/audit-logs/export': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return {
        client: p.client,
        query: { search: 'Matter', sortBy: 'created_at', sortDirection: 'desc' },
        // A system MFA token, not a code: the fuzz sends the request many times, and a code is good once.
        headers: { 'x-mfa-token': await systemMfaToken({ ...p, totpSecret: p.totpSecret! }, 'EXPORT_AUDIT_LOGS') },
      };
    },
    idProbes: [],
    notIds: { 'query.actorIds': "a filter on the entries of the caller's own organization: an id of another one matches nothing" },
  },
  'GET /_api/audit-logs/chain-export': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return {
        client: p.client,
        query: { startDate: '2020-01-01T00:00:00Z' },
        // A system MFA token, not a code: the fuzz sends the request many times, and a code is good once.
        headers: { 'x-mfa-token': await systemMfaToken({ ...p, totpSecret: p.totpSecret! }, 'EXPORT_AUDIT_LOGS') },
      };
    },
    idProbes: [],
  },
  'POST /_api/security/integrity-check': { build: async () => ({}), idProbes: [] },
  // ---- Security tooling (administrators) -----------------------------------------------------------------
  'GET /_api/security/policies': { build: async () => ({}), idProbes: [] },
  'POST /_api/security/policy-manage': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return {
        client: p.client,
        body: {
          operation: 'create',
          policy: {
            name: `Probe_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
            description: 'A policy made by the probes.',
            definition: { minRetentionYears: 1 },
          },
          // A system MFA token, not a code: the fuzz sends the request many times, and a code is good once.
          mfaToken: await systemMfaToken({ ...p, totpSecret: p.totpSecret! }, 'MFA_SYSTEM_OPERATIONS'),
        },
      };
    },
    idProbes: [],
  },
  'POST /_api/security/compliance-check': { build: async () => ({}), idProbes: [] },
  'POST /_api/security/vulnerability-scan': {
    build: async () => ({ body: { targetType: 'NETWORK', targetIdentifier: 'edge proxy' } }),
    idProbes: [],
  },
  'POST /_api/security/security-assessment': {
    build: async ({ me }) => {
      const scan = await me.admin.client.post('/_api/security/vulnerability-scan', {
        targetType: 'NETWORK',
        targetIdentifier: 'edge proxy',
      });
      return { body: { scanIds: [scan.json().scanId] } };
    },
    idProbes: [],
    notIds: {
      'body.scanIds':
        "a list (the probes substitute single values): security-tooling.test.ts sends another organization's scan id, alone and with one of the caller's, and checks it answers 404 with the text of a scan that exists nowhere",
    },
  },
  'GET /_api/dashboard/activity': { build: async () => ({}), idProbes: [] },
  'GET /_api/dashboard/vault-status': { build: async () => ({}), idProbes: [] },
  'GET /_api/dashboard/users': { build: async () => ({}), idProbes: [] },
  'GET /_api/dashboard/storage': { build: async () => ({}), idProbes: [] },
  'GET /_api/notifications': { build: async () => ({ query: { limit: '5' } }), idProbes: [] },
  'POST /_api/notifications/read': {
    build: async () => ({ body: { all: true } }),
    idProbes: [],
    notIds: {
      'body.notificationIds':
        "kind-prefixed keys (audit-<entry id>, retention-<matter id>-<day>): one the caller may not see, another organization's included, answers 404 (notifications.test.ts)",
    },
  },
  'GET /_api/system/archival-stats': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      return { client: p.client, headers: { 'x-mfa-token': currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/system/archive-audit-logs': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      // A real run: its step-up is the declared one (a dry run asks for the statistics' class instead).
      return { client: p.client, body: { dryRun: false, mfaToken: currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'GET /_api/system/archival-runs/latest': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      // The progress of an archival is of the archival's class.
      return { client: p.client, headers: { 'x-mfa-token': currentTotp(p.totpSecret!) } };
    },
    idProbes: [],
  },
  'POST /_api/audit-logs/retrieve-archived': {
    build: async ({ me }) => ({ body: { logId: me.auditLogId, organizationId: me.organizationId } }),
    idProbes: [{ set: { 'body.logId': 'auditLogId' } }, { set: { 'body.organizationId': 'organizationId' } }],
  },
  'POST /_api/audit-logs/check-retrievals': {
    build: async ({ me }) => ({ body: { organizationId: me.organizationId, logIds: [me.auditLogId] } }),
    idProbes: [{ set: { 'body.organizationId': 'organizationId' } }],
    notIds: { 'body.logIds': "a filter: only the caller's organization's entries they can see are reported, others are left out" },
  },

  // ---- Vault review ---------------------------------------------------------------------------------------
  'GET /_api/disposition/list': {
    build: async () => ({ query: { status: 'due', page: '1', pageSize: '50' } }),
    idProbes: [],
  },
  'POST /_api/disposition/decide': {
    build: async ({ t, me }) => {
      const p = await addPerson(t, me.organizationId, 'admin', { totp: true });
      const matterId = await queuedMatterOf(t, me);
      return {
        client: p.client,
        body: { matterId, decision: 'destroy', reason: 'Retention over (probe)', mfaToken: currentTotp(p.totpSecret!) },
      };
    },
    idProbes: [{ set: { 'body.matterId': 'matterId' } }],
  },
  'GET /_api/vault/list': {
    build: async () => ({
      query: { searchQuery: 'Matter', legalHold: 'all', sortBy: 'vaultedAt', sortDirection: 'desc', page: '1', pageSize: '20' },
    }),
    idProbes: [],
  },
  'GET /_api/vault/detail': {
    build: async ({ t, me }) => ({ query: { matterId: await vaultedMatterOf(t, me) } }),
    idProbes: [{ set: { 'query.matterId': 'matterId' } }],
  },
  'GET /_api/vault/audit': {
    build: async ({ t, me }) => ({ query: { matterId: await vaultedMatterOf(t, me), page: '1', pageSize: '50' } }),
    idProbes: [{ set: { 'query.matterId': 'matterId' } }],
  },
  'GET /_api/vault/certificate': {
    build: async ({ me }) => ({ query: { matterId: me.matter.id } }),
    expectStatus: { status: 409, why: 'the probe matter is not vaulted: its certificate does not exist (the vault tests fetch real ones)' },
    idProbes: [{ set: { 'query.matterId': 'matterId' } }],
  },
  'GET /_api/vault/report': {
    build: async ({ t, me }) => ({ query: { matterId: await vaultedMatterOf(t, me) } }),
    idProbes: [{ set: { 'query.matterId': 'matterId' } }],
  },
  'GET /_api/vault/register': {
    build: async () => ({ query: { format: 'csv' } }),
    idProbes: [],
  },

  // ---- Uploads -------------------------------------------------------------------------------------------
  'POST /_api/upload/presigned': {
    build: async ({ me }, variant) =>
      variant === 'part'
        ? {
            body: {
              fileName: me.multipart.fileName,
              fileType: 'application/pdf',
              matterId: me.matter.id,
              parentId: me.folder.id,
              partNumber: 2,
              uploadId: me.multipart.uploadId,
              s3Key: me.multipart.s3Key,
            },
          }
        : {
            body: {
              fileName: `${uniqueName('Scan')}.pdf`,
              fileType: 'application/pdf',
              matterId: me.matter.id,
              parentId: me.folder.id,
              fileSize: 10,
            },
          },
    idProbes: [
      { set: { 'body.matterId': 'matterId' } },
      { set: { 'body.parentId': 'folderId' } },
      { variant: 'part', set: { 'body.s3Key': 'multipartS3Key', 'body.uploadId': 'multipartUploadId' } },
      { variant: 'part', set: { 'body.s3Key': 'multipartS3Key' } },
      { variant: 'part', set: { 'body.uploadId': 'multipartUploadId' } },
    ],
  },
  'POST /_api/upload/multipart-init': {
    build: async ({ me }) => ({
      body: {
        fileName: `${uniqueName('Large')}.pdf`,
        fileType: 'application/pdf',
        matterId: me.matter.id,
        parentId: me.folder.id,
        fileSize: 200 * 1024 * 1024,
      },
    }),
    idProbes: [{ set: { 'body.matterId': 'matterId' } }, { set: { 'body.parentId': 'folderId' } }],
  },
  'POST /_api/upload/multipart-complete': {
    build: async ({ t, me }, variant) => {
      if (variant === 'multipart') {
        const up = await openMultipart(t, me.admin.client, me.matter.id, null);
        return {
          body: {
            s3Key: up.s3Key,
            uploadId: up.uploadId,
            fileName: up.fileName,
            fileType: 'application/pdf',
            matterId: me.matter.id,
            parentId: null,
            fileSize: 128,
            parts: [{ ETag: up.etag, PartNumber: 1 }],
          },
        };
      }
      const up = await pendingStandardUpload(t, me.admin.client, me.matter.id, null);
      return {
        body: {
          s3Key: up.s3Key,
          fileName: up.fileName,
          fileType: 'application/pdf',
          matterId: me.matter.id,
          parentId: null,
          fileSize: up.fileSize,
        },
      };
    },
    idProbes: [
      { set: { 'body.s3Key': 'standardS3Key' } },
      { set: { 'body.matterId': 'matterId' } },
      { set: { 'body.parentId': 'folderId' } },
      { variant: 'multipart', set: { 'body.s3Key': 'multipartS3Key', 'body.uploadId': 'multipartUploadId' } },
      { variant: 'multipart', set: { 'body.uploadId': 'multipartUploadId' } },
    ],
  },
  'POST /_api/upload/multipart-abort': {
    build: async ({ t, me }) => {
      const up = await openMultipart(t, me.admin.client, me.matter.id, null);
      return { body: { s3Key: up.s3Key, uploadId: up.uploadId } };
    },
    idProbes: [
      { set: { 'body.s3Key': 'multipartS3Key', 'body.uploadId': 'multipartUploadId' } },
      { set: { 'body.s3Key': 'multipartS3Key' } },
      { set: { 'body.uploadId': 'multipartUploadId' } },
    ],
  },
  'GET /_api/upload/parts': {
    build: async ({ me }) => ({ query: { uploadId: me.multipart.uploadId, s3Key: me.multipart.s3Key } }),
    idProbes: [
      { set: { 'query.s3Key': 'multipartS3Key', 'query.uploadId': 'multipartUploadId' } },
      { set: { 'query.s3Key': 'multipartS3Key' } },
    ],
  },

  // ---- Undo ----------------------------------------------------------------------------------------------
  'POST /_api/undo': {
    build: async ({ me }) => ({ body: { undoId: await undoEntryVia(me.admin.client, me.matter.id) } }),
    idProbes: [{ set: { 'body.undoId': 'undoId' } }],
  },

  // ---- Local object store (signed URLs) ------------------------------------------------------------------
  'PUT /_objects/{key}': {
    build: async ({ me }) => {
      const put = await presignedPut(me.admin.client, me.matter.id);
      return {
        url: new URL(put.url).pathname + new URL(put.url).search,
        rawBody: put.bytes,
        headers: { ...put.headers, 'content-length': String(put.bytes.length) },
      };
    },
    idProbes: [],
    notIds: { 'path.key': 'the object key is authorized by the URL signature alone, not by a session' },
  },
  'GET /_objects/{key}': {
    build: async ({ me }) => {
      const res = await me.admin.client.get(`/_api/nodes/download-url?nodeId=${me.file.id}`);
      const u = new URL(res.json().url);
      return { url: u.pathname + u.search };
    },
    idProbes: [],
    notIds: { 'path.key': 'the object key is authorized by the URL signature alone, not by a session' },
  },

  // ---- The web app ---------------------------------------------------------------------------------------
  'GET /{path}': {
    build: async () => ({ url: '/matters?folder=probe' }),
    idProbes: [],
    notIds: { 'path.path': 'a page or asset path, not a row' },
    publishedWhen: {
      check: (t) => fs.existsSync(path.join(t.config.webDist ?? DEFAULT_WEB_DIST, 'index.html')),
      why: 'served only when the built web app (web/dist/index.html) is present',
    },
  },
};

/** The path of a "METHOD /path" key. */
export const pathOf = (key: string) => key.slice(key.indexOf(' ') + 1);
export const methodOf = (key: string) => key.slice(0, key.indexOf(' '));
