import { z } from 'zod';
import { APPROVAL_LIMITS, APPROVAL_MSG } from '@strongroom/contracts';

/** The decide form as it is checked before sending: a reason is needed to reject, and is never over the limit. */
export const decideFormSchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    reason: z.string().trim().max(APPROVAL_LIMITS.reasonMax, { error: APPROVAL_MSG.reasonTooLong }),
  })
  .refine((v) => v.decision !== 'reject' || v.reason !== '', { error: APPROVAL_MSG.rejectReasonRequired, path: ['reason'] });

export type DecideFormValues = z.input<typeof decideFormSchema>;
