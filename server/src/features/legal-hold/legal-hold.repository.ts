/** The matter's legal hold: the flag, its reason and the matter's version. Scoped by organization_id. */
import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { MattersTable } from '../../platform/db/schema.js';

type MatterRow = Selectable<MattersTable>;

/** Sets the matter's legal hold and its reason, raising its version. */
export function setMatterHold(
  db: Executor,
  matter: Pick<MatterRow, 'id' | 'organizationId' | 'version'>,
  values: { legalHold: boolean; holdReason: string | null; userId: number },
) {
  return db
    .updateTable('matters')
    .set({
      legalHold: values.legalHold,
      holdReason: values.holdReason,
      version: matter.version + 1,
      updatedBy: values.userId,
      updatedAt: new Date(),
    })
    .where('id', '=', matter.id)
    .where('organizationId', '=', matter.organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
