import {
  APPROVAL_ACTION_LABELS,
  archiveAuditLogsRequest,
  ARCHIVAL_MSG,
  FEATURE_FLAG_DESCRIPTIONS,
  SETTINGS_MSG,
  updateApprovalSettingsRequest,
  updateFeatureFlagsRequest,
} from '@strongroom/contracts';
import { archivalPreview, requestArchivalRun } from '../../archival/index.js';
import { updateFeatureFlags } from '../../feature-flags/index.js';
import { flagStates, readApprovalPolicy } from '../approvals.repository.js';
import { updateApprovalPolicy } from '../approval-policy.service.js';
import type { GovernedAction } from './governed-action.js';
import { count, dateInWords, final } from './words.js';

const admins = [{ rule: 'admin', deny: SETTINGS_MSG.adminsOnly }] as const;

/** Turning off a multi-factor safeguard: the flags named MFA_ going from on to off. */
export const disableMfaFlag: GovernedAction = {
  action: 'DISABLE_MFA_FLAG',
  route: { method: 'POST', path: '/_api/settings/feature-flags' },
  allow: admins,
  async preview({ trx, auth, body }) {
    const input = updateFeatureFlagsRequest.parse(body);
    const states = new Map((await flagStates(trx, auth.user.organizationId)).map((f) => [f.flagName, f.enabled]));
    const off = input.flagsToUpdate.filter((f) => f.flagName.startsWith('MFA_') && !f.enabled && states.get(f.flagName) !== false);
    if (off.length === 0) return null;
    return {
      preview: {
        action: 'DISABLE_MFA_FLAG',
        title: `Turn off ${off.map((f) => f.flagName).join(', ')}`,
        summary: `These actions will no longer ask for a second-factor code: ${off.map((f) => FEATURE_FLAG_DESCRIPTIONS[f.flagName]).join('; ')}.`,
        cannotBeUndone: false,
        facts: input.flagsToUpdate.map((f) => ({
          label: f.flagName,
          value: `${states.get(f.flagName) === false ? 'off' : 'on'} → ${f.enabled ? 'on' : 'off'}`,
        })),
      },
      touches: {
        flags: [...states.entries()]
          .map(([k, v]) => `${k}=${v ? 'on' : 'off'}`)
          .sort()
          .join(' '),
      },
    };
  },
  execute: (_ctx, auth, body, meta) => updateFeatureFlags(auth, updateFeatureFlagsRequest.parse(body), meta),
};

/** Archiving moves old audit entries' details out of the database into the archive. */
export const archiveAuditLogs: GovernedAction = {
  action: 'ARCHIVE_AUDIT_LOGS',
  route: { method: 'POST', path: '/_api/system/archive-audit-logs' },
  allow: [{ rule: 'admin', deny: ARCHIVAL_MSG.adminsOnly }],
  async preview({ trx, auth, body }) {
    const input = archiveAuditLogsRequest.parse(body);
    if (input.dryRun) return null;
    const p = await archivalPreview(trx, auth.user.organizationId);
    return {
      preview: {
        action: 'ARCHIVE_AUDIT_LOGS',
        title: `Archive ${count(p.archivable, 'audit log entry', 'audit log entries')} written before ${dateInWords(p.cutoff)}`,
        summary: final(
          `The details of ${count(p.archivable, 'entry', 'entries')} move from the database into signed, write-once archive batches; the entries stay in the chain and their details can be retrieved from the archive.`,
        ),
        cannotBeUndone: true,
        facts: [
          { label: 'Entries', value: p.archivable.toLocaleString('en-GB') },
          { label: 'Written before', value: dateInWords(p.cutoff) },
          { label: 'Oldest', value: dateInWords(p.oldest) },
          { label: 'Newest', value: dateInWords(p.newest) },
        ],
      },
      // The archivable set only grows as days pass; what an approver must know is that nothing was archived meanwhile.
      touches: { archive: `oldest not archived ${p.oldest ?? 'none'}` },
    };
  },
  execute: (ctx, auth, _body, meta) => requestArchivalRun(ctx, auth, meta),
};

/** Once any rule is on, the rules themselves change only with a second approver. */
export const changeApprovalPolicy: GovernedAction = {
  action: 'CHANGE_APPROVAL_POLICY',
  route: { method: 'POST', path: '/_api/settings/approvals' },
  allow: admins,
  async preview({ trx, auth, body }) {
    const input = updateApprovalSettingsRequest.parse(body);
    const policy = await readApprovalPolicy(trx, auth.user.organizationId);
    if (policy.actions.length === 0) return null;
    const on = input.actions.filter((a) => !policy.actions.includes(a));
    const off = policy.actions.filter((a) => !input.actions.includes(a));
    const facts = [
      ...on.map((a) => ({ label: 'Turned on', value: APPROVAL_ACTION_LABELS[a] })),
      ...off.map((a) => ({ label: 'Turned off', value: APPROVAL_ACTION_LABELS[a] })),
    ];
    const limits: [keyof typeof policy & keyof typeof input, string][] = [
      ['expiryHours', 'Requests expire after (hours)'],
      ['folderFileThreshold', 'Folder size that needs approval (files)'],
      ['dispositionLeadDays', 'Disposition review starts (days before retention ends)'],
    ];
    for (const [key, label] of limits) {
      const next = input[key];
      if (typeof next === 'number' && next !== policy[key]) facts.push({ label, value: `${String(policy[key])} → ${next}` });
    }
    return {
      preview: {
        action: 'CHANGE_APPROVAL_POLICY',
        title: 'Change which actions need a second approver',
        summary:
          off.length > 0
            ? `After this change, ${off.map((a) => APPROVAL_ACTION_LABELS[a].toLowerCase()).join(', ')} will no longer need a second approver.`
            : 'The approval rules change as listed.',
        cannotBeUndone: false,
        facts: facts.length > 0 ? facts : [{ label: 'Change', value: 'none' }],
      },
      touches: { policy: JSON.stringify(policy) },
    };
  },
  execute: (ctx, auth, body, meta) => updateApprovalPolicy(ctx, auth, updateApprovalSettingsRequest.parse(body), meta),
};
