/**
 * DESTROY_AT_RETENTION_END: an administrator's 'destroy' decision in the disposition review (POST
 * /_api/disposition/decide). Its preview lists every file and version the destruction would remove, with its
 * sha256; what it touches is the matter's hold, its retention end, the review's state and the set of its vault
 * objects, so a hold, an extension, another decision or a changed vault voids the request. Once approved, the
 * decision runs for its requester, and the review records the requester and the approver as its approvers: the
 * certificate of destruction names them and the request.
 */
import { dispositionDecideRequest } from '@strongroom/contracts';
import { decideDisposition, destroyEffect, DISPOSITION_DECIDE_ACCESS } from '../../disposition/index.js';
import type { GovernedAction } from './governed-action.js';

export const destroyAtRetentionEnd: GovernedAction = {
  action: 'DESTROY_AT_RETENTION_END',
  route: { method: 'POST', path: '/_api/disposition/decide' },
  allow: DISPOSITION_DECIDE_ACCESS.allow,
  preview: ({ trx, auth, body }) => destroyEffect(trx, auth, dispositionDecideRequest.parse(body)),
  execute: (ctx, auth, body, meta) => decideDisposition(ctx, auth, dispositionDecideRequest.parse(body), meta),
};
