/**
 * GET /_api/vault/register: the register of every vaulted matter the reader may see, as CSV (the default) or as a
 * printable HTML report. The reader's organization only, the same readers as the vault list. The export is
 * audited before it streams (VAULT_REGISTER_EXPORTED with its format and row count); then the matters are read
 * in keyset batches, so memory stays flat whatever the register's size.
 */
import { Readable } from 'node:stream';
import { VAULT_REGISTER_COLUMNS, VAULT_REGISTER_MSG, vaultRegisterFileName, type VaultRegisterQuery } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { csvCell } from '../audit/index.js';
import type { AuthContext } from '../sessions/index.js';
import { vaultFacts } from './vault-queries.repository.js';
import { countRegister, newestVaultCertificates, vaultedMattersAfter, type RegisterCursor } from './vault-register.repository.js';

/** Matters read per statement while exporting. */
const REGISTER_BATCH = 500;

type RegisterRow = string[];

const iso = (d: Date | string | null) => (d === null ? '' : new Date(d).toISOString());

/** One batch of the register as rows of cells, in VAULT_REGISTER_COLUMNS order. */
async function* registerRows(ctx: AppContext, organizationId: string): AsyncGenerator<RegisterRow[]> {
  let after: RegisterCursor | null = null;
  for (;;) {
    const matters = await vaultedMattersAfter(ctx.db, organizationId, after, REGISTER_BATCH);
    if (matters.length === 0) return;
    const ids = matters.map((m) => m.id);
    const [facts, certificates] = await Promise.all([
      vaultFacts(ctx.db, organizationId, ids),
      newestVaultCertificates(ctx.db, organizationId, ids),
    ]);
    yield matters.map((m) => {
      const f = facts.get(m.id);
      const c = certificates.get(m.id);
      return [
        m.matterName,
        m.matterNumber ?? '',
        m.clientName ?? '',
        iso(m.vaultedAt),
        iso(m.retentionExpiresAt),
        m.legalHold ? 'Yes' : 'No',
        String(f?.fileCount ?? 0),
        String(f?.totalBytes ?? 0),
        c?.id ?? '',
        c?.keyFingerprint ?? '',
      ];
    });
    const last = matters[matters.length - 1]!;
    after = { matterName: last.matterName, id: last.id };
  }
}

const csvLine = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The CSV: UTF-8 with a byte-order mark, CRLF line ends, every cell neutralised against formulas as the audit export's. */
async function* csvLines(ctx: AppContext, organizationId: string): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(VAULT_REGISTER_COLUMNS)}`;
  for await (const rows of registerRows(ctx, organizationId)) yield rows.map(csvLine).join('');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (v: string) => v.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The printable report's style: light on paper, wide tables wrap, hashes break anywhere; no script, no outside resource. */
const STYLE = `body{font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111;margin:24px}
h1{font-size:20px;margin:0 0 4px}p.meta{color:#555;margin:0 0 16px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.hash{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:11px;word-break:break-all}
td.num{text-align:right;font-variant-numeric:tabular-nums}
@media print{body{margin:0;font-size:10px}th{background:none}tr{break-inside:avoid}thead{display:table-header-group}@page{size:A4 landscape;margin:12mm}}`;

const NUMERIC = new Set([6, 7]);
const HASHES = new Set([8, 9]);

async function* htmlChunks(ctx: AppContext, organizationId: string, organization: string, at: Date, count: number) {
  yield (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${esc(VAULT_REGISTER_MSG.title)} – ${esc(organization)}</title><style>${STYLE}</style></head><body>` +
    `<h1>${esc(VAULT_REGISTER_MSG.title)}</h1><p class="meta">${esc(organization)} · ${count} vaulted matter${count === 1 ? '' : 's'} · ` +
    `exported ${esc(at.toISOString())}</p><table><thead><tr>${VAULT_REGISTER_COLUMNS.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}</tr></thead><tbody>`
  );
  let rows = 0;
  for await (const batch of registerRows(ctx, organizationId)) {
    rows += batch.length;
    yield batch
      .map(
        (cells) =>
          `<tr>${cells
            .map((v, i) => {
              const text = i === 8 && v === '' ? VAULT_REGISTER_MSG.notIssued : v;
              return `<td${NUMERIC.has(i) ? ' class="num"' : HASHES.has(i) ? ' class="hash"' : ''}>${esc(text)}</td>`;
            })
            .join('')}</tr>`,
      )
      .join('');
  }
  if (rows === 0) yield `<tr><td colspan="${VAULT_REGISTER_COLUMNS.length}">${esc(VAULT_REGISTER_MSG.empty)}</td></tr>`;
  yield `</tbody></table></body></html>`;
}

export async function exportVaultRegister(
  ctx: AppContext,
  auth: AuthContext,
  q: VaultRegisterQuery,
  meta: RequestMeta,
): Promise<{ fileName: string; contentType: string; body: Readable }> {
  const { user } = auth;
  const at = new Date();
  const count = await ctx.db.transaction().execute(async (trx) => {
    const n = await countRegister(trx, user.organizationId);
    await auditFor(user, meta)(trx, 'VAULT_REGISTER_EXPORTED', { table: 'matters', id: null }, { format: q.format, rowCount: n });
    return n;
  });
  const fileName = vaultRegisterFileName(at, q.format);
  if (q.format === 'csv')
    return { fileName, contentType: 'text/csv; charset=utf-8', body: Readable.from(csvLines(ctx, user.organizationId)) };
  return {
    fileName,
    contentType: 'text/html; charset=utf-8',
    body: Readable.from(htmlChunks(ctx, user.organizationId, auth.org.name, at, count)),
  };
}
