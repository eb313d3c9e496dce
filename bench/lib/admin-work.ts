// The administrator beside the load: signs in, buys a step-up token for the audit export, vaults a matter (a fresh
// code) and exports the audit log every few seconds; and the database checks of a vault transfer afterwards.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { HttpUser, type Sample } from './http-user.js';
import { PASSWORD, type Person } from './seed.js';
import { sleep } from './procs.js';

export type AdminSession = { u: HttpUser; exportToken: string };

/** Signs the administrator in and buys a system MFA token of the export class. */
export async function adminSignIn(base: string, admin: Person, samples: Sample[], address = '127.0.9.1'): Promise<AdminSession> {
  const u = new HttpUser(base, address, samples);
  if (!(await u.signIn(admin.email, PASSWORD, admin.totpSecret))) throw new Error('the administrator could not sign in');
  const res = await u.post('admin', 'verifySystemMfa', '/_api/auth/verifySystemMfa', {
    operation: 'EXPORT_AUDIT_LOGS',
    mfaToken: await u.freshCode(admin.totpSecret),
  });
  if (res.status !== 200) throw new Error(`verifySystemMfa answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
  return { u, exportToken: res.json<{ systemMfaToken: string }>().systemMfaToken };
}

/** The audit log as CSV behind the export token: the status. */
export async function exportAudit(s: AdminSession): Promise<number> {
  const res = await s.u.get('admin', 'audit export', '/_api/audit-logs/export?limit=5000', { 'x-mfa-token': s.exportToken });
  return res.status;
}

/** Vaults a matter with a fresh code (waiting for the next TOTP step when needed): the status. */
export async function vaultMatter(s: AdminSession, admin: Person, matterId: string): Promise<number> {
  const mfaToken = await s.u.freshCode(admin.totpSecret);
  const res = await s.u.post('admin', 'vault start', '/_api/vault/start', { matterId, retentionYears: 7, mfaToken });
  if (res.status !== 200) console.error(`vault start answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return res.status;
}

/** The administrator's work during a load run: vault `matterId` after `vaultAfterMs`, export the audit log every 8 s. */
export async function adminWork(o: {
  base: string;
  admin: Person;
  matterId: string;
  samples: Sample[];
  deadline: number;
  vaultAfterMs: number;
}): Promise<{ vaultStatus: number; exports: number[] }> {
  const s = await adminSignIn(o.base, o.admin, o.samples);
  const started = Date.now();
  const exports: number[] = [];
  let vaultStatus = 0;
  try {
    while (Date.now() < o.deadline) {
      if (!vaultStatus && Date.now() - started >= o.vaultAfterMs) vaultStatus = await vaultMatter(s, o.admin, o.matterId);
      exports.push(await exportAudit(s));
      await sleep(Math.min(8000, Math.max(0, o.deadline - Date.now())));
    }
    if (!vaultStatus) vaultStatus = await vaultMatter(s, o.admin, o.matterId);
  } finally {
    s.u.close();
  }
  return { vaultStatus, exports };
}

export type VaultCheck = {
  state: string;
  filesTotal: number;
  filesDone: number;
  vaultObjects: number;
  distinctNodes: number;
  certificates: number;
  objectFiles: number;
  audit: Record<string, number>;
  exactlyOnce: boolean;
};

/** Waits (up to `timeoutMs`) for the matter's transfer to complete, then counts what it left, row by row and file by file. */
export async function checkVault(databaseUrl: string, dataDir: string, matterId: string, timeoutMs: number): Promise<VaultCheck> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const until = Date.now() + timeoutMs;
    let t: { state: string; files_total: number; files_done: number } | undefined;
    for (;;) {
      t = (await c.query('select state, files_total, files_done from vault_transfers where matter_id = $1', [matterId])).rows[0];
      if ((t && t.state === 'completed') || Date.now() > until) break;
      await sleep(500);
    }
    const one = async (q: string) => Number((await c.query(q, [matterId])).rows[0].n);
    const vaultObjects = await one('select count(*) n from vault_objects where matter_id = $1');
    const distinctNodes = await one('select count(distinct node_id) n from vault_objects where matter_id = $1');
    const certificates = await one('select count(*) n from vault_certificates where matter_id = $1');
    const rows = (
      await c.query(`select action, count(*) n from audit_logs where target_id = $1::text and action like 'VAULT%' group by action`, [
        matterId,
      ])
    ).rows as Array<{ action: string; n: string }>;
    const audit = Object.fromEntries(rows.map((r) => [r.action, Number(r.n)]));
    const objectFiles = countFiles(path.join(dataDir, 'objects'), matterId);
    const filesTotal = Number(t?.files_total ?? 0);
    const exactlyOnce =
      t?.state === 'completed' &&
      Number(t.files_done) === filesTotal &&
      vaultObjects === filesTotal &&
      distinctNodes === filesTotal &&
      certificates === 1 &&
      audit.VAULT_TRANSFER_COMPLETED === 1 &&
      audit.VAULT_CERTIFICATE_ISSUED === 1;
    return {
      state: t?.state ?? 'missing',
      filesTotal,
      filesDone: Number(t?.files_done ?? 0),
      vaultObjects,
      distinctNodes,
      certificates,
      objectFiles,
      audit,
      exactlyOnce,
    };
  } finally {
    await c.end();
  }
}

/** The matter's objects in the store's vault tree (one per vault copy, and the certificate), metadata and locks apart. */
function countFiles(dir: string, matterId: string): number {
  let n = 0;
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.includes(matterId)) n++;
    }
  };
  walk(path.join(dir, 'vault'));
  return n;
}
