/**
 * Dates in answers arrive as date values. Wherever an answer carries a matter (`matter`) or a list of them
 * (`matters`), the API client turns the matter's createdAt, updatedAt, vaultedAt and retentionExpiresAt from ISO
 * strings into `Date` (null stays null), and the session answer's `session.expiresAt` and
 * `session.absoluteExpiresAt` too, once, for every call; screens format dates and never parse them. Everything
 * else in an answer is left as the server sent it.
 */
import type { MatterDto, VaultedMatterDto } from '@strongroom/contracts';

const MATTER_DATE_FIELDS = ['createdAt', 'updatedAt', 'vaultedAt', 'retentionExpiresAt'] as const;
type MatterDateField = (typeof MATTER_DATE_FIELDS)[number];
const SESSION_DATE_FIELDS = ['expiresAt', 'absoluteExpiresAt'] as const;
type SessionDateField = (typeof SESSION_DATE_FIELDS)[number];

type DateOf<V> = V extends string ? Date : V;

/** A matter (or a vaulted matter) with its date fields as dates. */
type Dated<M> = { [K in keyof M]: K extends MatterDateField ? DateOf<M[K]> : M[K] };

/** The session's times with its end dates as dates. */
type DatedSession<S> = { [K in keyof S]: K extends SessionDateField ? DateOf<S[K]> : S[K] };

/** A matter as the web holds it: its dates are dates. */
export type Matter = Dated<MatterDto>;
/** A vaulted matter as the web holds it. */
export type VaultedMatter = Dated<VaultedMatterDto>;

/** The type of an answer after its matters' dates became dates. */
export type WithDates<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? {
        [K in keyof T]: K extends 'matter'
          ? Dated<T[K]>
          : K extends 'matters'
            ? T[K] extends readonly (infer M)[]
              ? Dated<M>[]
              : T[K]
            : K extends 'session'
              ? DatedSession<T[K]>
              : T[K];
      }
    : T;

/** An ISO 8601 date-time as the server writes it (2026-11-26T09:00:00.000Z, or with an offset). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withDateFields(value: unknown, fields: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const field of fields) {
    const v = out[field];
    if (typeof v !== 'string' || !ISO_DATE_TIME.test(v)) continue;
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) out[field] = d;
  }
  return out;
}

/**
 * Turns the dates of the matters, and of the session, in a parsed JSON answer into dates (a new value; the
 * argument is unchanged).
 */
export function withDates<T>(answer: T): WithDates<T> {
  if (!isRecord(answer) || (!('matter' in answer) && !('matters' in answer) && !('session' in answer))) return answer as WithDates<T>;
  const out: Record<string, unknown> = { ...answer };
  if ('matter' in out) out.matter = withDateFields(out.matter, MATTER_DATE_FIELDS);
  if (Array.isArray(out.matters)) out.matters = out.matters.map((m) => withDateFields(m, MATTER_DATE_FIELDS));
  if ('session' in out) out.session = withDateFields(out.session, SESSION_DATE_FIELDS);
  return out as WithDates<T>;
}
