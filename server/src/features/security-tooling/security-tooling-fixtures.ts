/**
 * What the security tooling tests share: an app with a firm whose administrator manages policies without a
 * fresh code each time, a user and a guest of that firm, and another firm; and the calls the tests make.
 */
import { type ComplianceReport, type VulnerabilityScanResponse } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, newOrganization, ok, type Member } from '../../../test/factories.js';

export type ToolingWorld = { t: TestApp; admin: Member; user: Member; guest: Member; other: Member };

export async function startToolingApp(): Promise<ToolingWorld> {
  const t = await createTestApp();
  const admin = await newFirm(t, 'Policy & Partners');
  const user = await addMember(t, admin.organizationId, 'user');
  const guest = await addMember(t, admin.organizationId, 'guest');
  const other = await newFirm(t, 'Other Firm LLP');
  return { t, admin, user, guest, other };
}

/**
 * A new firm whose administrator manages policies without a fresh code each time (MFA for system operations off;
 * the test 'asks for a fresh code ...' covers it on).
 */
export async function newFirm(t: TestApp, name: string): Promise<Member> {
  const m = await newOrganization(t, name);
  await t.ctx.db
    .insertInto('featureFlags')
    .values({ organizationId: m.organizationId, flagName: 'MFA_SYSTEM_OPERATIONS', enabled: false, updatedAt: new Date() })
    .onConflict((oc) => oc.columns(['organizationId', 'flagName']).doUpdateSet({ enabled: false }))
    .execute();
  return m;
}

export const policy = (name: string, definition: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  name,
  description: 'A policy of the firm for its records.',
  definition,
  ...extra,
});
export const manage = (m: Member, body: unknown) => m.client.post('/_api/security/policy-manage', body);
export const check = (report: ComplianceReport, name: string) => report.results.find((r) => r.name === name)!;
export const compliance = async (m: Member): Promise<ComplianceReport> => ok(await m.client.post('/_api/security/compliance-check', {}));
export const scan = async (targetType: string, m: Member): Promise<VulnerabilityScanResponse> =>
  ok(await m.client.post('/_api/security/vulnerability-scan', { targetType, targetIdentifier: `strongroom ${targetType.toLowerCase()}` }));

export function errorOf(res: { statusCode: number; json(): { error: string } }) {
  return { status: res.statusCode, error: res.json().error };
}
