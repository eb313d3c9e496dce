import { screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, SETTINGS_MSG, VAULT_MSG, type OrganizationSettingsResponse, type RetentionSettingsResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { OrganizationTab } from './organization-tab';
import { RetentionTab } from './retention-tab';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('@/lib/toast', () => ({ toast: { ...toasts, warning: vi.fn(), info: vi.fn(), message: vi.fn(), dismiss: vi.fn() } }));

let organization: OrganizationSettingsResponse;
let retention: RetentionSettingsResponse;
let calls: FetchCall[];
/** Whether the organization and retention changes demand a fresh code, as with their feature flags on. */
let mfaOn: boolean;

function mfaRequired(operation: string) {
  return Response.json(
    { error: 'MFA_REQUIRED', message: MSG.mfaRequired, code: 'MFA_REQUIRED', details: { operation, mfaMethod: 'totp' } },
    { status: 401 },
  );
}

beforeEach(() => {
  toasts.success.mockClear();
  mfaOn = false;
  organization = {
    organizationId: 'first-firm',
    name: 'First Firm LLP',
    primaryContactName: null,
    primaryContactEmail: null,
    primaryContactPhone: null,
    canEdit: true,
  };
  retention = {
    defaultRetentionYears: 7,
    binRetentionDays: 30,
    canEdit: true,
    vaultConfiguration: {
      objectLockMode: 'COMPLIANCE',
      mfaForVaulting: 'Required',
      writeOnce: {
        enforced: true,
        store: 'local',
        mode: 'COMPLIANCE',
        detail: 'The local store refuses to overwrite or delete a locked object.',
      },
    },
  };
  calls = stubFetch(({ method, path, body }) => {
    const b = body as Record<string, unknown> | undefined;
    if (path === '/_api/settings/organization' && method === 'GET') return Response.json(organization);
    if (path === '/_api/settings/organization') {
      if (mfaOn && b?.mfaToken !== '123456') return mfaRequired('MFA_ORGANIZATION_SETTINGS');
      const { mfaToken: _, ...fields } = b as Record<string, string>;
      organization = { ...organization, ...fields };
      return Response.json({ success: true, message: SETTINGS_MSG.organizationUpdated, organization });
    }
    if (path === '/_api/settings/retention' && method === 'GET') return Response.json(retention);
    if (path === '/_api/settings/retention') {
      if (mfaOn && b?.mfaToken !== '123456') return mfaRequired('MFA_RETENTION_POLICIES');
      retention = {
        ...retention,
        defaultRetentionYears: b!.defaultRetentionYears as number,
        binRetentionDays: (b!.binRetentionDays as number | undefined) ?? retention.binRetentionDays,
      };
      return Response.json({
        success: true,
        message: SETTINGS_MSG.retentionUpdated,
        defaultRetentionYears: retention.defaultRetentionYears,
        binRetentionDays: retention.binRetentionDays,
      });
    }
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

function renderWithMfa(node: ReactNode) {
  return renderWithClient(
    <>
      {node}
      <MfaHost />
    </>,
  );
}

describe('the Organization tab', () => {
  it("shows the firm name and 'Not set' for an empty primary contact", async () => {
    renderWithMfa(<OrganizationTab />);
    expect(await screen.findByText('First Firm LLP')).toBeInTheDocument();
    expect(screen.getAllByText('Not set')).toHaveLength(3);
  });

  it('has no Edit button for a member who may not change it', async () => {
    organization.canEdit = false;
    renderWithMfa(<OrganizationTab />);
    await screen.findByText('First Firm LLP');
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it("checks every field with the spec's messages", async () => {
    const { user } = renderWithMfa(<OrganizationTab />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.clear(screen.getByLabelText('Firm name'));
    await user.type(screen.getByLabelText('Primary contact email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Firm name is required.')).toBeInTheDocument();
    expect(screen.getByText('Contact name is required.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid contact email.')).toBeInTheDocument();
    expect(screen.getByText('Contact phone is required.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('asks for a code when the server demands one (MFA_ORGANIZATION_SETTINGS on) and saves with it', async () => {
    mfaOn = true;
    const { user } = renderWithMfa(<OrganizationTab />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.type(screen.getByLabelText('Primary contact name'), 'Fay First');
    await user.type(screen.getByLabelText('Primary contact email'), 'fay@first.test');
    await user.type(screen.getByLabelText('Primary contact phone'), '+44 20 7946 0000');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const prompt = await screen.findByRole('dialog');
    await user.type(within(prompt).getByLabelText('Verification Code'), '123456');
    await user.click(within(prompt).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('fay@first.test')).toBeInTheDocument();
    expect(screen.queryByText('Not set')).toBeNull();
    expect(toasts.success).toHaveBeenCalledWith(SETTINGS_MSG.organizationUpdated);
    expect(calls.filter((c) => c.method === 'POST').map((c) => (c.body as { mfaToken?: string }).mfaToken)).toEqual([undefined, '123456']);
  });
});

describe('the Retention & Vault tab', () => {
  it('shows the default retention and the vault configuration as the server reports it', async () => {
    renderWithMfa(<RetentionTab />);
    expect(await screen.findByLabelText('Retention period (years)')).toHaveValue(7);
    expect(screen.getByLabelText('Retention period (years)')).toHaveAttribute('min', '1');
    const vault = screen.getByRole('region', { name: 'Vault Configuration' });
    expect(within(vault).getByText('Object Lock Mode')).toBeInTheDocument();
    expect(within(vault).getByText('Compliance')).toBeInTheDocument();
    expect(within(vault).getByText(/WORM protection/)).toBeInTheDocument();
    expect(within(vault).getByText('MFA for Vaulting')).toBeInTheDocument();
    expect(within(vault).getByText('Required')).toBeInTheDocument();
    expect(within(vault).getByTestId('write-once-status')).toHaveTextContent('Enforced');
  });

  it('says so when the store does not enforce write-once', async () => {
    retention.vaultConfiguration.writeOnce = { enforced: false, store: 's3', mode: null, detail: 'The bucket has no Object Lock.' };
    renderWithMfa(<RetentionTab />);
    expect(await screen.findByTestId('write-once-status')).toHaveTextContent('Not enforced');
    // Why vaulting is refused, and the one way an administrator can allow it.
    expect(screen.getByText(`S3 object store: The bucket has no Object Lock. ${VAULT_MSG.unlockedStoreNote}`)).toBeInTheDocument();
    expect(VAULT_MSG.unlockedStoreNote).toContain('VAULT_ALLOW_UNLOCKED_STORE=true');
  });

  it('refuses less than 1 year and a fraction', async () => {
    const { user } = renderWithMfa(<RetentionTab />);
    const input = await screen.findByLabelText('Retention period (years)');
    await user.clear(input);
    await user.type(input, '0');
    await user.click(screen.getByRole('button', { name: 'Save Retention Policy' }));
    expect(await screen.findByText('Retention must be at least 1 year.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '2.5');
    await user.click(screen.getByRole('button', { name: 'Save Retention Policy' }));
    expect(await screen.findByText(SETTINGS_MSG.retentionInteger)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('saves a new default with a code when the server demands one (MFA_RETENTION_POLICIES on)', async () => {
    mfaOn = true;
    const { user } = renderWithMfa(<RetentionTab />);
    const input = await screen.findByLabelText('Retention period (years)');
    await user.clear(input);
    await user.type(input, '10');
    await user.click(screen.getByRole('button', { name: 'Save Retention Policy' }));
    const prompt = await screen.findByRole('dialog');
    await user.type(within(prompt).getByLabelText('Verification Code'), '123456');
    await user.click(within(prompt).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith(SETTINGS_MSG.retentionUpdated));
    expect(retention.defaultRetentionYears).toBe(10);
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      defaultRetentionYears: 10,
      binRetentionDays: 30,
      mfaToken: '123456',
    });
    await waitFor(() => expect(screen.getByLabelText('Retention period (years)')).toHaveValue(10));
  });

  it('is read-only for a member who may not change it', async () => {
    retention.canEdit = false;
    renderWithMfa(<RetentionTab />);
    expect(await screen.findByLabelText('Retention period (years)')).toHaveAttribute('readonly');
    expect(screen.getByText('Only administrators can change the retention policy.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Retention Policy' })).toBeNull();
  });
});
