import { configure, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_LOG_MSG, SECURITY_TOOLING_MSG, type SecurityPolicy } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { SecurityToolingSection } from './security-tooling-section';

configure({ asyncUtilTimeout: 5_000 });

const SCAN_ID = '0b7f3c1e-2a4d-4e5f-8a9b-1c2d3e4f5a6b';
let calls: FetchCall[];
let chainValid: boolean;
let policies: SecurityPolicy[];
const bodiesOf = (path: string) => calls.filter((c) => c.path === path).map((c) => c.body);
const bySeverity = { CRITICAL: 0, HIGH: 1, MEDIUM: 0, LOW: 0, INFO: 0 };

beforeEach(() => {
  chainValid = true;
  policies = [];
  calls = stubFetch(({ path, body }) => {
    switch (path) {
      case '/_api/security/integrity-check':
        return Response.json({
          isValid: chainValid,
          checkedEntries: 1234,
          invalidEntries: chainValid ? [] : [{ id: '17', seq: 17, reason: 'hash does not match the entry' }],
          signedHead: chainValid
            ? {
                seq: 1234,
                hash: 'a'.repeat(64),
                signedAt: '2026-11-26T10:00:00.000Z',
                keyId: 'b'.repeat(64),
                objectKey: 'vault/audit-heads/o1/x.json',
              }
            : null,
          anchor: chainValid
            ? { status: 'signed', message: AUDIT_LOG_MSG.anchorSigned(1234, '2026-11-26T10:00:00.000Z', 1234) }
            : { status: 'none', message: AUDIT_LOG_MSG.anchorNone },
        });
      case '/_api/security/compliance-check':
        return Response.json({
          reportId: 'r1',
          organizationId: 'o1',
          generatedAt: new Date().toISOString(),
          summary: { totalChecks: 2, compliant: 1, nonCompliant: 1, errors: 0 },
          results: [
            { name: 'MFA_ENROLLMENT', status: 'compliant', detail: 'Every active user has MFA.', policies: [] },
            { name: 'ARCHIVAL_CURRENT', status: 'non_compliant', detail: '12 logs are older than 180 days.', policies: [] },
          ],
        });
      case '/_api/security/vulnerability-scan':
        return Response.json({
          message: 'done',
          scanId: SCAN_ID,
          assessmentId: null,
          targetType: (body as { targetType: string }).targetType,
          targetIdentifier: (body as { targetIdentifier: string }).targetIdentifier,
          createdAt: new Date().toISOString(),
          summary: { totalVulnerabilities: 1, bySeverity },
          findings: [
            {
              id: 'f1',
              check: 'HSTS_MISSING',
              severity: 'HIGH',
              title: 'HSTS is not sent',
              detail: 'No header.',
              recommendation: 'Send it.',
            },
          ],
        });
      case '/_api/security/security-assessment':
        return Response.json({
          message: 'done',
          assessmentId: 'a1',
          overallRiskLevel: 'HIGH',
          summary: { scans: 1, totalVulnerabilities: 1, bySeverity, text: 'Send HSTS first.' },
        });
      case '/_api/security/policies':
        return Response.json({ policies });
      case '/_api/security/policy-manage': {
        const b = body as { operation: string; policy?: { name: string; description: string }; policyName?: string };
        if (b.operation === 'create') {
          policies = [
            {
              id: 'p1',
              name: b.policy!.name,
              description: b.policy!.description,
              definition: {},
              version: 1,
              isActive: true,
              organizationId: 'o1',
              createdAt: '2026-11-26T09:00:00.000Z',
              updatedAt: '2026-11-26T09:00:00.000Z',
            },
          ];
          return Response.json({ message: SECURITY_TOOLING_MSG.policyCreated(b.policy!.name), policy: policies[0] });
        }
        if (b.operation === 'update') {
          const stale = (b.policy as { version?: number }).version !== policies[0]!.version;
          if (stale) return Response.json({ error: SECURITY_TOOLING_MSG.policyVersionStale }, { status: 409 });
          policies = [{ ...policies[0]!, description: b.policy!.description, version: policies[0]!.version + 1 }];
          return Response.json({ message: SECURITY_TOOLING_MSG.policyUpdated(b.policy!.name, policies[0]!.version), policy: policies[0] });
        }
        policies = [];
        return Response.json({ message: SECURITY_TOOLING_MSG.policyDeleted(b.policyName!), policy: null });
      }
    }
    return Response.json({ error: 'not here' }, { status: 404 });
  });
});

function render() {
  return renderWithClient(
    <>
      <SecurityToolingSection />
      <Toaster />
    </>,
  );
}

describe('the Security tooling section', { timeout: 20_000 }, () => {
  it('runs the integrity check and toasts it passed, or failed with the broken entry shown', async () => {
    const { user } = render();
    await user.click(screen.getByRole('button', { name: 'Run integrity check' }));
    expect(await screen.findByText(AUDIT_LOG_MSG.integrityPassed(1234))).toBeInTheDocument();
    // Whether and when the chain was anchored is said beside the verdict.
    expect(screen.getByTestId('integrity-anchor')).toHaveTextContent(AUDIT_LOG_MSG.anchorSigned(1234, '2026-11-26T10:00:00.000Z', 1234));
    chainValid = false;
    await user.click(screen.getByRole('button', { name: 'Run integrity check' }));
    expect(await screen.findByText(AUDIT_LOG_MSG.integrityFailed(1))).toBeInTheDocument();
    expect(screen.getByTestId('integrity-result')).toHaveTextContent('Entry 17 (id 17): hash does not match the entry');
    expect(screen.getByTestId('integrity-anchor')).toHaveTextContent(AUDIT_LOG_MSG.anchorNone);
  });

  it('runs the compliance check, lists each check and warns about the non-compliant one', async () => {
    const { user } = render();
    await user.click(screen.getByRole('button', { name: 'Run compliance check' }));
    expect(await screen.findByText(SECURITY_TOOLING_MSG.complianceWarning(1, 0))).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Compliance checks' });
    expect(within(table).getByText('ARCHIVAL_CURRENT').closest('tr')).toHaveTextContent('Non-compliant');
  });

  it('scans a target, then assesses the chosen scan and shows a HIGH risk as an error', async () => {
    const { user } = render();
    const identifier = screen.getByLabelText('Target identifier');
    await user.clear(identifier);
    await user.click(screen.getByRole('button', { name: 'Run scan' }));
    expect(await screen.findByText(SECURITY_TOOLING_MSG.targetIdentifierEmpty)).toBeInTheDocument();
    await user.type(identifier, 'app.strongroom.test');
    await user.click(screen.getByRole('button', { name: 'Run scan' }));
    expect(await screen.findByText(SECURITY_TOOLING_MSG.scanFound(1))).toBeInTheDocument();
    expect(screen.getByTestId('scan-results')).toHaveTextContent('HSTS is not sent');
    expect(bodiesOf('/_api/security/vulnerability-scan')).toEqual([{ targetType: 'APPLICATION', targetIdentifier: 'app.strongroom.test' }]);
    await user.click(screen.getByRole('button', { name: 'Assess selected scans (1)' }));
    expect(await screen.findByText(SECURITY_TOOLING_MSG.assessmentDone('HIGH'))).toBeInTheDocument();
    expect(bodiesOf('/_api/security/security-assessment')).toEqual([{ scanIds: [SCAN_ID] }]);
  });

  it('creates a policy after the name and description rules, and deletes it', async () => {
    const { user } = render();
    expect(await screen.findByText(/No security policies yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'New security policy' });
    await user.type(within(dialog).getByLabelText('Name'), 'bad name!');
    await user.type(within(dialog).getByLabelText('Description'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Create policy' }));
    expect(await within(dialog).findByText(SECURITY_TOOLING_MSG.policyNameChars)).toBeInTheDocument();
    expect(within(dialog).getByText(SECURITY_TOOLING_MSG.policyDescriptionLength)).toBeInTheDocument();
    expect(bodiesOf('/_api/security/policy-manage')).toEqual([]);
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'retention_floor');
    await user.type(within(dialog).getByLabelText('Description'), ' enough words here');
    await user.click(within(dialog).getByRole('button', { name: 'Create policy' }));
    expect(await screen.findByText(SECURITY_TOOLING_MSG.policyCreated('retention_floor'))).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Security policies' });
    expect(within(table).getByText('retention_floor')).toBeInTheDocument();
    expect(bodiesOf('/_api/security/policy-manage')[0]).toMatchObject({
      operation: 'create',
      policy: {
        name: 'retention_floor',
        description: 'short enough words here',
        definition: { minRetentionYears: 7, requireMfa: true },
        isActive: true,
      },
    });
    await user.click(within(table).getByRole('button', { name: 'Delete policy retention_floor' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete policy retention_floor?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete policy' }));
    expect(await screen.findByText(SECURITY_TOOLING_MSG.policyDeleted('retention_floor'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Security policies' })).not.toBeInTheDocument());
  });

  it('edits a policy with the version it read, after refusing a definition that is not JSON', async () => {
    policies = [
      {
        id: 'p1',
        name: 'mfa_for_all',
        description: 'Every member signs in with MFA.',
        definition: { requireMfa: true },
        version: 2,
        isActive: true,
        organizationId: 'o1',
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ];
    const { user } = render();
    const table = await screen.findByRole('table', { name: 'Security policies' });
    expect(within(table).getByText('v2')).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Edit policy mfa_for_all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit policy mfa_for_all' });
    const definition = within(dialog).getByLabelText('Definition (JSON)');
    await user.clear(definition);
    await user.type(definition, 'not json');
    await user.click(within(dialog).getByRole('button', { name: 'Save policy' }));
    expect(await within(dialog).findByText(SECURITY_TOOLING_MSG.policyDefinition)).toBeInTheDocument();
    await user.clear(definition);
    await user.type(within(dialog).getByLabelText('Description'), ' Reviewed yearly.');
    await user.click(within(dialog).getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText(SECURITY_TOOLING_MSG.policyUpdated('mfa_for_all', 3))).toBeInTheDocument();
    expect(bodiesOf('/_api/security/policy-manage').at(-1)).toMatchObject({
      operation: 'update',
      policyName: 'mfa_for_all',
      policy: { name: 'mfa_for_all', description: 'Every member signs in with MFA. Reviewed yearly.', version: 2, definition: {} },
    });
    expect(await within(table).findByText('v3')).toBeInTheDocument();
  });
});
