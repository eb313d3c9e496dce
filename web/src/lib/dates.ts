/**
 * A matter's dates arrive as date values. Wherever an answer carries a matter (`matter`) or a list of them
 * (`matters`), the API client turns the matter's createdAt, updatedAt, vaultedAt and retentionExpiresAt from ISO
 * strings into `Date` (null stays null), once, for every call; screens format dates and never parse them.
 * Everything else in an answer is left as the server sent it.
 */
import type { MatterDto, VaultedMatterDto } from '@strongroom/contracts';

const MATTER_DATE_FIELDS = ['createdAt', 'updatedAt', 'vaultedAt', 'retentionExpiresAt'] as const;
type MatterDateField = (typeof MATTER_DATE_FIELDS)[number];

type DateOf<V> = V extends string ? Date : V;

/** A matter (or a vaulted matter) with its date fields as dates. */
type Dated<M> = { [K in keyof M]: K extends MatterDateField ? DateOf<M[K]> : M[K] };

/** A matter as the web holds it: its dates are dates. */
export type Matter = Dated<MatterDto>;
/** A vaulted matter as the web holds it. */
export type VaultedMatter = Dated<VaultedMatterDto>;

/** The type of an answer after its matters' dates became dates. */
export type WithMatterDates<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? {
        [K in keyof T]: K extends 'matter'
          ? Dated<T[K]>
          : K extends 'matters'
            ? T[K] extends readonly (infer M)[]
              ? Dated<M>[]
              : T[K]
            : T[K];
      }
    : T;

/** An ISO 8601 date-time as the server writes it (2026-11-26T09:00:00.000Z, or with an offset). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function datedMatter(matter: unknown): unknown {
  if (!isRecord(matter)) return matter;
  const out: Record<string, unknown> = { ...matter };
  for (const field of MATTER_DATE_FIELDS) {
    const v = out[field];
    if (typeof v !== 'string' || !ISO_DATE_TIME.test(v)) continue;
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) out[field] = d;
  }
  return out;
}

/** Turns the dates of the matters in a parsed JSON answer into dates (a new value; the argument is unchanged). */
export function withMatterDates<T>(answer: T): WithMatterDates<T> {
  if (!isRecord(answer) || (!('matter' in answer) && !('matters' in answer))) return answer as WithMatterDates<T>;
  const out: Record<string, unknown> = { ...answer };
  if ('matter' in out) out.matter = datedMatter(out.matter);
  if (Array.isArray(out.matters)) out.matters = out.matters.map(datedMatter);
  return out as WithMatterDates<T>;
}
