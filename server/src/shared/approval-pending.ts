import type { ApprovalRequiredResponse } from '@strongroom/contracts';

/**
 * Thrown by a governed call once its approval request is recorded: the action did not happen. The error handler
 * answers it 202 with the request and its preview, so that no code after the step-up (the call's usual answer)
 * runs as if the change had been made.
 */
export class ApprovalPending extends Error {
  constructor(readonly answer: ApprovalRequiredResponse) {
    super(answer.message);
  }
}
