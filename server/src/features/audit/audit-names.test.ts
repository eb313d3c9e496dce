/**
 * The names GET /_api/audit-logs/list answers beside each entry, which its sentence uses when the entry recorded
 * none: the current name of the file or folder and its matter, of the matter, of the person. Never a name of
 * another organization's matter, however the entry names its id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuditEntry, type AuditLogEntry } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, createFolder, createMatter, newOrganization, ok, type Member } from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Names LLP');
  other = await newOrganization(t, 'Elsewhere LLP');
});
afterAll(() => t.shutdown());

const logsOf = async (m: Member, action: string): Promise<AuditLogEntry[]> =>
  ok(await m.client.get(`/_api/audit-logs/list?actions=${action}`)).logs;

/** Writes an entry by Strongroom itself in the organization's chain, recording no names. */
async function write(organizationId: string, action: string, target: { table: string; id: string }, details = {}) {
  await t.ctx.db.transaction().execute((trx) => auditFor({ organizationId, actor: null })(trx, action, target, details));
}

describe('GET /_api/audit-logs/list names', () => {
  it('answers the folder and matter names of an entry that recorded only ids, and reads as a sentence', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Smith v Jones' });
    const folder = await createFolder(admin.client, matter.id, 'Pleadings');
    await write(admin.organizationId, 'UNDO_RENAME_NODE', { table: 'nodes', id: folder.id }, { nodeType: 'folder' });
    const [entry] = await logsOf(admin, 'UNDO_RENAME_NODE');
    expect(entry!.names).toEqual({ matter: 'Smith v Jones', target: 'Pleadings' });
    expect(describeAuditEntry(entry!)).toBe('Strongroom undid the renaming of the folder “Pleadings” in “Smith v Jones”');
  });

  it('keeps the name an entry recorded at the time over the current one', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Old name' });
    ok(await admin.client.post('/_api/matters/update', { matterId: matter.id, expectedVersion: matter.version, matterName: 'New name' }));
    const entries = await logsOf(admin, 'CREATE_MATTER');
    const created = entries.find((e) => e.targetId === matter.id)!;
    expect(created.names?.target).toBe('New name');
    expect(describeAuditEntry(created)).toContain('“Old name”');
  });

  it('names the person a deactivation was about, and says deactivated', async () => {
    const bob = await addMember(t, admin.organizationId, 'user', {}, 'Bob Baker');
    const row = await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', bob.userId).executeTakeFirstOrThrow();
    await write(admin.organizationId, 'USER_REMOVE', { table: 'users', id: row.publicId }, { email: bob.email });
    const [entry] = await logsOf(admin, 'USER_REMOVE');
    expect(entry!.names?.target).toBe('Bob Baker');
    expect(describeAuditEntry(entry!)).toBe('Strongroom deactivated Bob Baker');
  });

  it('never answers the name of another organization’s matter', async () => {
    const theirs = await createMatter(other.client, { matterName: 'Their secret matter' });
    await write(admin.organizationId, 'VAULT_TRANSFER_COMPLETED', { table: 'matters', id: theirs.id });
    const [entry] = await logsOf(admin, 'VAULT_TRANSFER_COMPLETED');
    expect(entry!.names).toEqual({ matter: null, target: null });
    expect(JSON.stringify(entry)).not.toContain('Their secret matter');
  });
});
