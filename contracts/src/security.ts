import { z } from 'zod';
import { SECURITY_EVENT_ACTIONS } from './constants.js';
import { MSG } from './messages.js';

const targetId = z.string().max(200).optional();
const details = z.record(z.string(), z.unknown()).optional();

export const securityEventLogRequest = z.strictObject({
  action: z.enum(SECURITY_EVENT_ACTIONS, { error: MSG.securityActionInvalid }),
  targetId,
  details,
});
export const forensicLogRequest = z.strictObject({
  action: z.string({ error: MSG.actionEmpty }).trim().min(1, { error: MSG.actionEmpty }).max(100),
  targetId,
  details,
});
export const securityLogResponse = z.object({ success: z.literal(true), id: z.string() });
