import type { ApprovalPreview, ApprovalRequestAction } from '@strongroom/contracts';
import type { Executor } from '../../../platform/db/database.js';
import type { AppContext, RequestMeta } from '../../../shared/context.js';
import type { AllowRule } from '../../../shared/route-access.js';
import type { AuthContext } from '../../sessions/index.js';

/** What a preview is computed from: the call's validated input, who asks, and the transaction it reads in. */
type GovernedInput = { ctx: AppContext; trx: Executor; auth: AuthContext; body: unknown; query: unknown };

/**
 * A governed call's effect on the store as it is: what the approvers read (`preview`) and the state of what it
 * touches (`touches`: a version, a hold, a membership, in words), compared again at approval, where a difference
 * voids the request with the changed entries named.
 */
export type GovernedEffect = { preview: ApprovalPreview; touches: Record<string, string> };

/**
 * One governed action: its preview, and how its call is run again for its requester once approved. The route
 * names the action in its declaration (`governed: { action }`); this is the rest.
 */
export type GovernedAction = {
  action: ApprovalRequestAction;
  /** The route's method and path, recorded with the request. */
  route: { method: 'POST'; path: string };
  /** The route's rules, checked again against the requester as they are when the request runs. */
  allow: readonly AllowRule[];
  /** The effect of the call, or null when this call, on this state, is not governed (it then runs at once). */
  preview(input: GovernedInput): Promise<GovernedEffect | null>;
  /** Runs the call as the route would, for its requester; the body is the one recorded (the route's schema parses it again). */
  execute(ctx: AppContext, auth: AuthContext, body: unknown, meta: RequestMeta): Promise<unknown>;
};
