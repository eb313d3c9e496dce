/**
 * Whether a database error is a unique-index violation (SQLSTATE 23505), optionally of one named index. A check
 * before an insert or update cannot see a row committed a moment later; the unique index is what decides, and
 * the caller turns its refusal into the same 409 the check answers.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null | undefined;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
