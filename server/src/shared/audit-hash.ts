/**
 * The hash of an audit entry, on its own so that code with no database can recompute a chain (the offline
 * verifier, scripts/verify-audit.mjs, imports this file). It imports nothing but node:crypto, through tokens.ts.
 */
import { canonicalJson, sha256Hex } from './tokens.js';

/** The hash before the first entry of every chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** Every field an entry's hash covers. */
export type ChainedFields = {
  chainKey: string;
  seq: string;
  organizationId: string | null;
  actorId: number | null;
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  targetTable: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
  ipAddress: string | null;
  createdAt: Date;
};

/** The hash of one entry: sha256 over the previous hash and a canonical form of every recorded field. */
export function entryHash(prevHash: string, f: ChainedFields): string {
  return sha256Hex(
    prevHash +
      canonicalJson([
        f.chainKey,
        String(f.seq),
        f.organizationId,
        f.actorId,
        f.actorName,
        f.actorEmail,
        f.action,
        f.targetTable,
        f.targetId,
        f.details,
        f.ipAddress,
        f.createdAt.toISOString(),
      ]),
  );
}
