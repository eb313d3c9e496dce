/**
 * The dashboard's figures, each for one widget. Who may call each is the route's business; what each caller may
 * see inside an answer is decided here: vaulted matters and the organization's full activity only for holders
 * of canViewVaulted.
 */
import {
  DASHBOARD_LIMITS,
  DASHBOARD_ORG_WIDE_ACTIONS,
  describeAuditEntry,
  type DashboardActivityResponse,
  type DashboardStorageResponse,
  type DashboardUsersResponse,
  type DashboardVaultStatusResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { AuthContext } from '../sessions/index.js';
import { organizationQuota } from '../users/index.js';
import { recentActivity, retentionAlerts, storedBytes, userCounts, vaultCounts } from './dashboard.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The newest entries the user may see. Holders of canViewVaulted see the organization's activity; anyone else
 * sees their own actions plus the organization-wide kinds (a matter created, a user invited, the organization
 * updated); a guest sees only their own actions.
 */
export async function dashboardActivity(ctx: AppContext, auth: AuthContext): Promise<DashboardActivityResponse> {
  const { user } = auth;
  const seesAll = user.role !== 'guest' && user.permissions.canViewVaulted;
  const rows = await recentActivity(ctx.db, {
    organizationId: user.organizationId,
    limit: DASHBOARD_LIMITS.listSize,
    ...(seesAll ? {} : { ownActorId: user.id, orgWideActions: user.role === 'guest' ? [] : DASHBOARD_ORG_WIDE_ACTIONS }),
  });
  return {
    entries: rows.map((r) => ({
      id: r.id,
      action: r.action,
      actorName: r.actorName,
      targetTable: r.targetTable,
      createdAt: r.createdAt.toISOString(),
      summary: describeAuditEntry({
        action: r.action,
        actor: { name: r.actorName, email: r.actorEmail },
        targetTable: r.targetTable,
        targetId: r.targetId,
        details: r.details as Record<string, unknown> | null,
      }),
    })),
  };
}

/** Retention alerts cover vaulted matters whose retention ends at least 1 and at most 90 days from now. */
function alertWindow(now: Date): { from: Date; to: Date } {
  return { from: new Date(now.getTime() + DAY_MS), to: new Date(now.getTime() + DASHBOARD_LIMITS.alertDays * DAY_MS) };
}

export async function dashboardVaultStatus(ctx: AppContext, auth: AuthContext): Promise<DashboardVaultStatusResponse> {
  const orgId = auth.user.organizationId;
  const { from, to } = alertWindow(new Date());
  const [counts, alerts] = await Promise.all([
    vaultCounts(ctx.db, orgId, from, to),
    retentionAlerts(ctx.db, orgId, from, to, DASHBOARD_LIMITS.alertListMax),
  ]);
  return {
    vaultedMatters: counts.vaulted,
    retentionAlerts: counts.alerts,
    legalHolds: counts.holds,
    alerts: alerts.map((a) => ({
      matterId: a.id,
      matterName: a.matterName,
      retentionExpiresAt: a.retentionExpiresAt!.toISOString(),
    })),
  };
}

export function dashboardUsers(ctx: AppContext, auth: AuthContext): Promise<DashboardUsersResponse> {
  return userCounts(ctx.db, auth.user.organizationId, new Date());
}

/** Stored bytes against the organization's quota: its own, else the installation's default, else none. */
export async function dashboardStorage(ctx: AppContext, auth: AuthContext): Promise<DashboardStorageResponse> {
  const orgId = auth.user.organizationId;
  const [bytes, quota] = await Promise.all([storedBytes(ctx.db, orgId), organizationQuota(ctx.db, orgId)]);
  const own = quota.storageQuotaBytes;
  const quotaBytes = own !== null ? Number(own) : (ctx.config.storageQuotaBytes ?? null);
  return { ...bytes, totalBytes: bytes.hotBytes + bytes.vaultedBytes, quotaBytes };
}
