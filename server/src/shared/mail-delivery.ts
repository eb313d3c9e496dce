import { MSG } from '@strongroom/contracts';
import type { MailMessage } from '../platform/mail/mailer.js';
import type { AppContext } from './context.js';
import { serviceUnavailable } from './errors.js';

/** Sends a mail the user is waiting for (a verification code): a failed send is logged and answered 503. */
export async function deliverOr503(ctx: AppContext, mail: MailMessage): Promise<void> {
  try {
    await ctx.mailer.send(mail);
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, 'sending mail failed');
    throw serviceUnavailable(MSG.emailSendFailed);
  }
}
