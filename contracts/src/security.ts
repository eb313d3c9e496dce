import { z } from 'zod';
import { SECURITY_EVENT_ACTIONS } from './constants.js';
import { MSG } from './messages.js';
import { jsonObjectField, text } from './common.js';

const targetId = text().max(200).optional();
/** Free-form, but bounded: 16 KB serialized and 8 levels at most, and the text rule inside. */
const details = jsonObjectField('Details').optional();

export const securityEventLogRequest = z.strictObject({
  action: z.enum(SECURITY_EVENT_ACTIONS, { error: MSG.securityActionInvalid }),
  targetId,
  details,
});
export type SecurityEventLogRequest = z.infer<typeof securityEventLogRequest>;
export const forensicLogRequest = z.strictObject({
  action: text({ error: MSG.actionEmpty }).trim().min(1, { error: MSG.actionEmpty }).max(100),
  targetId,
  details,
});
export type ForensicLogRequest = z.infer<typeof forensicLogRequest>;
export const securityLogResponse = z.object({ success: z.literal(true), id: z.string() });
export type SecurityLogResponse = z.infer<typeof securityLogResponse>;
