/** The rules of a disposition decision, checked before a code is spent and again under the locks. */
import { DISPOSITION_MSG, DISPOSITION_STATUS_LABELS, type DispositionDecideRequest } from '@strongroom/contracts';
import { badRequest, conflict } from '../../shared/errors.js';
import type { MatterRow } from '../matters/index.js';
import type { ReviewRow } from './disposition.repository.js';

/** The new retention end an extension asks for: a date, or whole years after the current end. */
export function extendedEnd(matter: Pick<MatterRow, 'retentionExpiresAt'>, retainUntil: DispositionDecideRequest['retainUntil']): Date {
  const current = matter.retentionExpiresAt!;
  let end: Date;
  if (typeof retainUntil === 'number') {
    end = new Date(current.getTime());
    end.setUTCFullYear(end.getUTCFullYear() + retainUntil);
  } else {
    end = new Date(`${retainUntil}T00:00:00Z`);
  }
  if (end.getTime() <= current.getTime()) throw badRequest(DISPOSITION_MSG.retainUntilNotLater, { field: 'retainUntil' });
  return end;
}

/**
 * The review this decision is about, or the refusal: a matter that is not vaulted or has no review of its current
 * retention end is not in the queue (409); a review decided already says how (409); a held matter cannot be
 * approved for destruction or held again (409); an extension must end later than now (400).
 */
export function requireDecidable(matter: MatterRow, review: ReviewRow | undefined, body: DispositionDecideRequest): ReviewRow {
  if (!matter.isVaulted || !matter.retentionExpiresAt || !review) throw conflict(DISPOSITION_MSG.notInQueue, { reason: 'NOT_IN_QUEUE' });
  const open = review.status === 'due' || (review.status === 'approved' && body.decision !== 'destroy');
  if (!open) throw conflict(DISPOSITION_MSG.alreadyDecided(DISPOSITION_STATUS_LABELS[review.status]), { reason: 'ALREADY_DECIDED' });
  if (matter.legalHold && body.decision !== 'extend') throw conflict(DISPOSITION_MSG.alreadyHeld, { reason: 'LEGAL_HOLD' });
  if (body.decision === 'extend') extendedEnd(matter, body.retainUntil);
  return review;
}
