import { z } from 'zod';

/**
 * The vault register: every vaulted matter the reader may see, as CSV or as a printable HTML report, with each
 * matter's vault certificate id and the fingerprint of the key that signed it. GET /_api/vault/register?format=
 * (csv, the default, or html): the same readers as the vault list (members with canViewVaulted; guests see no
 * vault), the reader's organization only, streamed in batches whatever the register's size. Each export is
 * audited (VAULT_REGISTER_EXPORTED, with its format and row count).
 */
export const VAULT_REGISTER_FORMATS = ['csv', 'html'] as const;
export type VaultRegisterFormat = (typeof VAULT_REGISTER_FORMATS)[number];

export const VAULT_REGISTER_MSG = {
  formatInvalid: 'format must be csv or html.',
  title: 'Vault register',
  csvItem: 'Vault register (CSV)',
  htmlItem: 'Vault register (printable report)',
  failed: 'Failed to export the vault register. Please try again.',
  downloaded: (name: string) => `Downloaded ${name}`,
  empty: 'No vaulted matters.',
  notIssued: 'Not issued yet',
} as const;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
export const vaultRegisterQuery = z.strictObject({
  format: z.preprocess(blankToUndefined, z.enum(VAULT_REGISTER_FORMATS, { error: VAULT_REGISTER_MSG.formatInvalid }).default('csv')),
});
export type VaultRegisterQuery = z.infer<typeof vaultRegisterQuery>;

/** The register's columns, in order (CSV header and the printable report's table). */
export const VAULT_REGISTER_COLUMNS = [
  'Matter',
  'Matter number',
  'Client',
  'Vaulted at',
  'Retention ends',
  'Legal hold',
  'Files',
  'Bytes',
  'Certificate ID',
  'Key fingerprint',
] as const;

/** The file's name: strongroom_vault_register_<ISO time>.<csv|html>. */
export const vaultRegisterFileName = (at: Date, format: VaultRegisterFormat) =>
  `strongroom_vault_register_${at.toISOString().replace(/[:.]/g, '-')}.${format}`;
