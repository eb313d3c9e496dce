// The firm the scale-out load runs against, written before the servers start: an administrator and N members who
// sign in with a password and an authenticator (TOTP; the secret stored in plain form, which the server encrypts
// with MFA_ENCRYPTION_KEY at its first use), matters with small files in the shared local store.
import { createHash, randomFillSync } from 'node:crypto';
import { Readable } from 'node:stream';
import { DEFAULT_PERMISSIONS } from '@strongroom/contracts';
import { migrateToLatest, openDatabase, type Database } from '../../server/src/platform/db/database.js';
import { createOrganizationFromCli } from '../../server/src/features/setup/setup.service.js';
import { hashPassword, insertUser } from '../../server/src/features/users/index.js';
import { LocalBlobStore } from '../../server/src/platform/storage/index.js';
import { newTotpSecret } from '../../server/src/features/mfa/totp.js';

export const PASSWORD = 'correct horse battery staple';

export type Person = { email: string; userId: number; totpSecret: string };
type SeedFile = { nodeId: string; size: number };
export type SeedMatter = { id: string; name: string; files: SeedFile[] };
export type Firm = { organizationId: string; admin: Person; members: Person[]; matters: SeedMatter[] };

const WORDS = [
  'Harbour',
  'Lease',
  'Merger',
  'Estate',
  'Patent',
  'Tenancy',
  'Supply',
  'Pension',
  'Charter',
  'Licence',
  'Probate',
  'Dispute',
];

async function withTotp(db: Database, userId: number): Promise<string> {
  const totpSecret = newTotpSecret();
  await db.updateTable('users').set({ mfaEnabled: true, mfaPrimaryMethod: 'totp', totpSecret }).where('id', '=', userId).execute();
  return totpSecret;
}

/** A matter with `files` files of `size` random bytes written through the store as uploads write them. */
async function seedMatter(
  db: Database,
  store: LocalBlobStore,
  o: { organizationId: string; userId: number; name: string; client: string; files: number; size: number },
): Promise<SeedMatter> {
  const matter = await db
    .insertInto('matters')
    .values({
      organizationId: o.organizationId,
      matterName: o.name,
      matterNumber: null,
      clientName: o.client,
      description: `${o.name} for ${o.client}`,
      responsibleLawyer: 'Bench Counsel',
      createdBy: o.userId,
      updatedBy: o.userId,
      holdReason: null,
      retentionExpiresAt: null,
      vaultedAt: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const buf = Buffer.alloc(o.size);
  randomFillSync(buf);
  const files: SeedFile[] = [];
  for (let i = 0; i < o.files; i++) {
    buf.writeUInt32BE(i, 0);
    const key = `org/${o.organizationId}/matters/${matter.id}/${crypto.randomUUID()}`;
    await store.writeObject(key, Readable.from([buf]), { length: o.size, contentType: 'application/pdf' });
    const node = await db
      .insertInto('nodes')
      .values({
        organizationId: o.organizationId,
        matterId: matter.id,
        parentId: null,
        name: `${o.name.split(' ')[0]} document ${String(i + 1).padStart(3, '0')}.pdf`,
        nodeType: 'file',
        fileSize: o.size,
        mimeType: 'application/pdf',
        sha256Hash: createHash('sha256').update(buf).digest('hex'),
        storagePath: key,
        uploadId: null,
        uploadStatus: 'completed',
        uploadProgress: 100,
        createdBy: o.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    files.push({ nodeId: node.id, size: o.size });
  }
  return { id: matter.id, name: o.name, files };
}

/**
 * Migrates the database (PostgreSQL directly, not through PgBouncer) and writes the firm. The store is the local store in
 * `dataDir` with the installation's signing key, as the servers will open it.
 */
export async function seedFirm(o: {
  /** PostgreSQL; without it the embedded database in DATA_DIR/pg, as `npm start` opens it (before the server starts). */
  databaseUrl?: string;
  dataDir: string;
  appUrl: string;
  signingKey: string;
  members: number;
  matters: number;
  filesPerMatter: number;
  extraMatters?: Array<{ name: string; files: number; size: number }>;
}): Promise<Firm & { extra: SeedMatter[] }> {
  const database = await openDatabase({ databaseUrl: o.databaseUrl, dataDir: o.dataDir });
  try {
    const db = database.db;
    await migrateToLatest(db);
    const adminEmail = `admin.${Date.now().toString(36)}@firm.test`;
    const { organizationId, userId } = await createOrganizationFromCli(db, {
      name: 'Scale-out LLP',
      adminName: 'Bench Admin',
      adminEmail,
      adminPassword: PASSWORD,
    });
    const admin = { email: adminEmail, userId, totpSecret: await withTotp(db, userId) };
    const passwordHash = await hashPassword(PASSWORD);
    const members: Person[] = [];
    for (let i = 0; i < o.members; i++) {
      const email = `member${i + 1}.${organizationId.slice(0, 6)}@firm.test`;
      const user = await insertUser(db, {
        organizationId,
        email,
        fullName: `Member ${i + 1}`,
        passwordHash,
        role: 'user',
        permissions: DEFAULT_PERMISSIONS.user,
      });
      members.push({ email, userId: user.id, totpSecret: await withTotp(db, user.id) });
    }
    const store = new LocalBlobStore({ dataDir: o.dataDir, appUrl: o.appUrl, signingKey: o.signingKey, routePrefix: '/_objects' });
    const matters: SeedMatter[] = [];
    for (let i = 0; i < o.matters; i++) {
      const name = `${WORDS[i % WORDS.length]} matter ${i + 1}`;
      const client = `${WORDS[(i * 5) % WORDS.length]} Holdings`;
      matters.push(await seedMatter(db, store, { organizationId, userId, name, client, files: o.filesPerMatter, size: 24 * 1024 }));
    }
    const extra: SeedMatter[] = [];
    for (const m of o.extraMatters ?? [])
      extra.push(
        await seedMatter(db, store, { organizationId, userId, name: m.name, client: 'Vault Client', files: m.files, size: m.size }),
      );
    return { organizationId, admin, members, matters, extra };
  } finally {
    await database.close();
  }
}
