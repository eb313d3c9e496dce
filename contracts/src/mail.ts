/**
 * The subject and body of every mail Strongroom sends, written once. Each entry takes the values that vary
 * and answers `{ subject, text }`; the sender adds the recipient. A subject never carries a code or a link:
 * subjects end up in logs, notifications and mail listings.
 */
export const MAIL = {
  approvalRequested: (p: { requester: string; title: string; summary: string; expiresAt: string; link: string }) => ({
    subject: 'Strongroom: a request is waiting for your approval',
    text:
      `${p.requester} asks to: ${p.title}\n\n${p.summary}\n\n` +
      `Nothing has changed yet. Read the request and approve or reject it here (it expires ${p.expiresAt}):\n${p.link}\n`,
  }),

  approvalDecided: (p: { title: string; outcome: string; decider: string; reason: string | null; link: string }) => ({
    subject: 'Strongroom: your request was decided',
    text:
      `Your request to ${p.title.charAt(0).toLowerCase()}${p.title.slice(1)} was ${p.outcome} by ${p.decider}.\n` +
      `${p.reason ? `Reason: ${p.reason}\n` : ''}\nSee the request here:\n${p.link}\n`,
  }),

  passwordReset: (p: { link: string; minutes: number }) => ({
    subject: 'Reset your Strongroom password',
    text:
      'Someone asked to reset the password of your Strongroom account.\n\n' +
      `Set a new password here (the link works once, for ${p.minutes} minutes):\n${p.link}\n\n` +
      'If it was not you, ignore this message; your password stays as it is.\n',
  }),

  emailCode: (p: { code: string; purpose: 'login' | 'setup' | 'action'; minutes: number }) => {
    const why =
      p.purpose === 'login'
        ? 'to finish signing in'
        : p.purpose === 'setup'
          ? 'to turn on email verification'
          : 'to confirm a protected action';
    return {
      subject: 'Your Strongroom verification code',
      text:
        `Your Strongroom verification code is ${p.code}\n\n` +
        `Enter it ${why}. It expires in ${p.minutes} minutes and works once.\n` +
        'If you did not ask for it, someone may know your password: change it and tell your administrator.\n',
    };
  },

  codeLockout: (p: { scope: 'login' | 'action'; limit: number; windowMinutes: number; lockMinutes: number }) => {
    const where = p.scope === 'login' ? 'while signing in to' : 'for protected actions in';
    return {
      subject: 'Strongroom: too many incorrect codes on your account',
      text:
        `${p.limit} incorrect verification codes were entered ${where} your Strongroom account within ${p.windowMinutes} minutes.\n` +
        `For your protection, verification codes will not be accepted for the next ${p.lockMinutes} minutes.\n\n` +
        'If this was not you, someone may know your password: change it and tell your administrator.\n',
    };
  },

  /** A recovery code replaced the authenticator: at sign-in or to change the verification method. */
  recoveryCodeUsed: (p: { purpose: 'login' | 'method-change'; remaining: number }) => ({
    subject: 'Strongroom: a recovery code was used on your account',
    text:
      `One of your Strongroom recovery codes was just used ${p.purpose === 'login' ? 'to sign in' : 'to change your verification method'}. ` +
      `${p.remaining} unused recovery code${p.remaining === 1 ? '' : 's'} remain${p.remaining === 1 ? 's' : ''}.\n\n` +
      'If it was not you, someone has your password and a recovery code: change your password and tell your administrator at once.\n',
  }),

  /** A passkey was added to the account (registering one is also behind a fresh code). */
  passkeyAdded: (p: { name: string }) => ({
    subject: 'Strongroom: a passkey was added to your account',
    text:
      `The passkey "${p.name}" was added to your Strongroom account. It can now be used to verify your identity.\n\n` +
      'If it was not you, remove it in Settings → Profile → Passkeys, change your password and tell your administrator at once.\n',
  }),

  /** A passkey's signature counter went back: the credential may have been copied. */
  passkeyCloneSuspected: (p: { name: string }) => ({
    subject: 'Strongroom: one of your passkeys was refused',
    text:
      `Your passkey "${p.name}" was just refused because its signature counter went back, which can mean the passkey was copied.\n` +
      'Sign in another way, remove that passkey in Settings → Profile → Passkeys and tell your administrator.\n',
  }),

  /** Sent to the old address when a user changes their email address. */
  emailChanged: (p: { newEmail: string }) => ({
    subject: 'Strongroom: the email address of your account was changed',
    text:
      `The email address of your Strongroom account was changed to ${p.newEmail}. Verification codes and password resets now go there.\n\n` +
      'If it was not you, tell your administrator at once.\n',
  }),

  invitation: (p: { inviterName: string; inviterEmail: string; organization: string; link: string; days: number }) => ({
    subject: `${p.inviterName} invited you to ${p.organization} on Strongroom`,
    text:
      `${p.inviterName} (${p.inviterEmail}) invited you to join ${p.organization} on Strongroom, its legal archive.\n\n` +
      `Create your account here (the link works once, for ${p.days} days):\n${p.link}\n`,
  }),

  /** Sent instead of an invitation when the address already has an account; nothing in it can be used to join. */
  invitationRefused: (p: { inviterName: string; inviterEmail: string; organization: string }) => ({
    subject: `${p.inviterName} tried to invite you to ${p.organization} on Strongroom`,
    text:
      `${p.inviterName} (${p.inviterEmail}) tried to invite this address to ${p.organization} on Strongroom, its legal archive.\n\n` +
      'This address already has a Strongroom account, and an address can belong to one organization only, so no invitation was ' +
      `created. If you expected it, talk to ${p.inviterName} or to your own administrator.\n`,
  }),

  /**
   * To the organization's administrators when the continuous verification finds a vaulted file that differs
   * from what was vaulted (its bytes, or its write-once lock).
   */
  vaultVerificationFailed: (p: {
    organization: string;
    matterName: string;
    matterNumber: string | null;
    path: string;
    problems: string[];
    checkedAt: string;
  }) => ({
    subject: `Strongroom: a vaulted file of ${p.organization} failed its integrity check`,
    text:
      `The scheduled integrity check of the vault found a file that differs from what was vaulted.\n\n` +
      `Matter: ${p.matterName}${p.matterNumber ? ` (${p.matterNumber})` : ''}\n` +
      `File: ${p.path}\n` +
      `Checked at: ${p.checkedAt}\n` +
      `Differences:\n${p.problems.map((x) => `- ${x}`).join('\n')}\n\n` +
      'The audit log records it as VAULT_VERIFICATION_FAILED with what was expected and what was found. Keep the matter ' +
      'under legal hold, export its vault report and certificate, and have the storage investigated.\n',
  }),

  /** Once a day to each administrator: the vaulted matters whose retention ends in 1 to 90 days, soonest first. */
  retentionAlerts: (p: {
    organization: string;
    matters: { matterName: string; matterNumber: string | null; retentionEndsOn: string; days: number }[];
    link: string;
  }) => ({
    subject: `Strongroom: ${p.matters.length === 1 ? '1 vaulted matter reaches' : `${p.matters.length} vaulted matters reach`} the end of retention within 90 days`,
    text:
      `In ${p.organization}, the retention of these vaulted matters ends within the next 90 days:\n\n` +
      p.matters
        .map(
          (m) =>
            `- ${m.matterName}${m.matterNumber ? ` (${m.matterNumber})` : ''}: ends on ${m.retentionEndsOn}, in ${m.days === 1 ? '1 day' : `${m.days} days`}`,
        )
        .join('\n') +
      '\n\nEach enters the disposition review before its retention ends: its vaulted files are destroyed, with a certificate of ' +
      'destruction, only once an administrator has approved it, and never while it is under legal hold. Review them in the ' +
      `vault:\n${p.link}\n`,
  }),

  /** Once a day to each administrator, at most: vaulted matters whose retention ended with no disposition decision. */
  dispositionReminder: (p: {
    organization: string;
    matters: { matterName: string; matterNumber: string | null; retentionEndedOn: string; daysOverdue: number }[];
    link: string;
  }) => ({
    subject: `Strongroom: ${p.matters.length === 1 ? '1 vaulted matter waits' : `${p.matters.length} vaulted matters wait`} for a disposition decision`,
    text:
      `In ${p.organization}, the retention of these vaulted matters has ended and nobody has decided what happens to them:\n\n` +
      p.matters
        .map(
          (m) =>
            `- ${m.matterName}${m.matterNumber ? ` (${m.matterNumber})` : ''}: ended on ${m.retentionEndedOn}, ${m.daysOverdue === 1 ? '1 day' : `${m.daysOverdue} days`} ago`,
        )
        .join('\n') +
      '\n\nNothing is destroyed until an administrator approves it. Approve the destruction, extend the retention or place ' +
      `a legal hold in the disposition review:\n${p.link}\n`,
  }),
} as const;
