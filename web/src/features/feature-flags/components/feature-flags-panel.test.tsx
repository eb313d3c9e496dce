import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEATURE_FLAG_DESCRIPTIONS, FEATURE_FLAG_NAMES, SETTINGS_MSG, type FeatureFlag } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { clearSystemMfaTokens, storeSystemMfaToken } from '@/lib/system-mfa';
import { SecuritySettings } from './feature-flags-panel';

let flags: FeatureFlag[];
let listAnswer: () => Response;
let saveAnswer: (call: FetchCall) => Response | Promise<Response>;
let calls: FetchCall[];

function flagsNow(): FeatureFlag[] {
  return flags.map((f) => ({ ...f }));
}

beforeEach(() => {
  flags = FEATURE_FLAG_NAMES.map((flagName) => ({ flagName, description: FEATURE_FLAG_DESCRIPTIONS[flagName], enabled: false }));
  listAnswer = () => Response.json({ featureFlags: flagsNow() });
  saveAnswer = ({ body }) => {
    const b = body as { flagsToUpdate: { flagName: string; enabled: boolean }[] };
    for (const u of b.flagsToUpdate) flags.find((f) => f.flagName === u.flagName)!.enabled = u.enabled;
    return Response.json({ success: true, message: SETTINGS_MSG.flagsUpdated, featureFlags: flagsNow() });
  };
  calls = stubFetch((call) => {
    if (call.path === '/_api/settings/feature-flags' && call.method === 'GET') return listAnswer();
    if (call.path === '/_api/settings/feature-flags' && call.method === 'POST') return saveAnswer(call);
    if (call.path === '/_api/auth/verifySystemMfa') {
      return Response.json({
        success: true,
        systemMfaToken: 'system-token-from-the-server',
        expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
      });
    }
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
  clearSystemMfaTokens();
});

afterEach(() => {
  clearSystemMfaTokens();
  vi.useRealTimers();
});

function renderPanel(props: Partial<Parameters<typeof SecuritySettings>[0]> = {}) {
  return renderWithClient(
    <>
      <SecuritySettings authLoading={false} isAdmin organizationId="first-firm" {...props} />
      <MfaHost />
    </>,
  );
}

const flagSwitch = (label: string) => screen.getByRole('switch', { name: label });

describe('the Security tab', () => {
  it('tells a non-admin that administrator privileges are needed, without loading any flag', () => {
    renderPanel({ isAdmin: false });
    expect(screen.getByRole('heading', { name: 'Access Restricted' })).toBeInTheDocument();
    expect(screen.getByText('You need administrator privileges to access security settings.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('says Loading while the signed-in user is not known yet', () => {
    renderPanel({ authLoading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
  });

  it('shows 5 skeleton rows while the flags load, then the 6 flags with their descriptions', async () => {
    renderPanel();
    expect(screen.getByRole('heading', { name: 'MFA for Critical Operations' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading feature flags' })).toBeInTheDocument();
    expect(screen.getAllByTestId('flag-skeleton')).toHaveLength(5);
    expect(await screen.findAllByRole('switch')).toHaveLength(6);
    for (const name of FEATURE_FLAG_NAMES) {
      expect(screen.getByText(name)).toBeInTheDocument();
      expect(screen.getByText(FEATURE_FLAG_DESCRIPTIONS[name])).toBeInTheDocument();
    }
    expect(flagSwitch('User management')).toHaveAccessibleDescription(FEATURE_FLAG_DESCRIPTIONS.MFA_USER_MANAGEMENT);
  });

  it('marks a toggled flag changed and lists it in the unsaved-change bar; toggling back or Cancel restores the server value', async () => {
    const { user } = renderPanel();
    await screen.findAllByRole('switch');
    const row = screen.getByTestId('flag-MFA_USER_MANAGEMENT');

    await user.click(flagSwitch('User management'));
    expect(flagSwitch('User management')).toBeChecked();
    expect(row).toHaveAttribute('data-state', 'changed');
    expect(within(row).getByText('Changed, not saved')).toBeInTheDocument();
    const bar = screen.getByRole('region', { name: 'Unsaved changes' });
    expect(bar).toHaveTextContent('1 unsaved change');
    expect(bar).toHaveTextContent('User management: Off → On');

    await user.click(flagSwitch('User management'));
    expect(row).toHaveAttribute('data-state', 'original');
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();

    await user.click(flagSwitch('Retention policies'));
    await user.click(flagSwitch('System operations'));
    expect(screen.getByRole('region', { name: 'Unsaved changes' })).toHaveTextContent('2 unsaved changes');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(flagSwitch('Retention policies')).not.toBeChecked();
    expect(flagSwitch('System operations')).not.toBeChecked();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('asks for a system MFA code (MANAGE_FEATURE_FLAGS), saves only the changed flags with the organization, shows saved for 2 s', async () => {
    const { user } = renderPanel();
    await screen.findAllByRole('switch');
    await user.click(flagSwitch('Organization settings'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const prompt = await screen.findByRole('dialog');
    await user.type(within(prompt).getByLabelText('Verification Code'), '123456');
    await user.click(within(prompt).getByRole('button', { name: /verify/i }));

    const row = screen.getByTestId('flag-MFA_ORGANIZATION_SETTINGS');
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'saved'));
    expect(within(row).getByText('Saved')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/_api/auth/verifySystemMfa')?.body).toEqual({
      operation: 'MANAGE_FEATURE_FLAGS',
      mfaToken: '123456',
    });
    const post = calls.find((c) => c.path === '/_api/settings/feature-flags' && c.method === 'POST');
    expect(post?.body).toEqual({
      flagsToUpdate: [{ flagName: 'MFA_ORGANIZATION_SETTINGS', enabled: true }],
      organizationId: 'first-firm',
      mfaToken: 'system-token-from-the-server',
    });
    expect(flagSwitch('Organization settings')).toBeChecked();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    // The check mark goes after 2 seconds.
    await waitFor(() => expect(row).toHaveAttribute('data-state', 'original'), { timeout: 3_000 });
  });

  it('turning an MFA flag off asks for a fresh code in the MFA dialog and never sends a kept system token', async () => {
    flags.find((f) => f.flagName === 'MFA_USER_MANAGEMENT')!.enabled = true;
    storeSystemMfaToken('MANAGE_FEATURE_FLAGS', 'kept-system-token');
    const save = saveAnswer;
    saveAnswer = (call) =>
      (call.body as { mfaToken?: string }).mfaToken === '123456'
        ? save(call)
        : Response.json(
            {
              error: 'MFA_REQUIRED',
              code: 'MFA_REQUIRED',
              mfaRequired: true,
              details: { operation: 'MANAGE_FEATURE_FLAGS', mfaMethod: 'totp' },
            },
            { status: 401 },
          );
    const { user } = renderPanel();
    await screen.findAllByRole('switch');
    await user.click(flagSwitch('User management'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Verification Code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(screen.getByTestId('flag-MFA_USER_MANAGEMENT')).toHaveAttribute('data-state', 'saved'));
    expect(flagSwitch('User management')).not.toBeChecked();
    const posts = calls.filter((c) => c.path === '/_api/settings/feature-flags' && c.method === 'POST').map((c) => c.body);
    expect(posts).toEqual([
      { flagsToUpdate: [{ flagName: 'MFA_USER_MANAGEMENT', enabled: false }], organizationId: 'first-firm' },
      { flagsToUpdate: [{ flagName: 'MFA_USER_MANAGEMENT', enabled: false }], organizationId: 'first-firm', mfaToken: '123456' },
    ]);
    expect(calls.some((c) => c.path === '/_api/auth/verifySystemMfa')).toBe(false);
  });

  it('keeps a safeguard-off change quietly when the MFA dialog is closed', async () => {
    flags.find((f) => f.flagName === 'MFA_VAULT_OPERATIONS')!.enabled = true;
    saveAnswer = () =>
      Response.json(
        { error: 'MFA_REQUIRED', code: 'MFA_REQUIRED', mfaRequired: true, details: { operation: 'MANAGE_FEATURE_FLAGS' } },
        { status: 401 },
      );
    const { user } = renderPanel();
    await screen.findAllByRole('switch');
    await user.click(flagSwitch('Vault operations'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('flag-MFA_VAULT_OPERATIONS')).toHaveAttribute('data-state', 'changed'));
    expect(screen.queryByText('Failed to save changes. Please try again.')).toBeNull();
  });

  it('goes back to changed, keeps the change and says so when the save fails', async () => {
    storeSystemMfaToken('MANAGE_FEATURE_FLAGS', 'kept-system-token');
    saveAnswer = () => Response.json({ error: SETTINGS_MSG.organizationMismatch, code: 'PERMISSION_ERROR' }, { status: 403 });
    const { user } = renderPanel();
    await screen.findAllByRole('switch');
    await user.click(flagSwitch('Vault operations'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Failed to save changes. Please try again.')).toBeInTheDocument();
    expect(screen.getByTestId('flag-MFA_VAULT_OPERATIONS')).toHaveAttribute('data-state', 'changed');
    expect(flagSwitch('Vault operations')).toBeChecked();
    // No prompt: the kept system token went with the call.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((calls.find((c) => c.method === 'POST')?.body as { mfaToken: string }).mfaToken).toBe('kept-system-token');
  });

  it('keeps the change quietly when the MFA prompt is closed', async () => {
    const { user } = renderPanel();
    await screen.findAllByRole('switch');
    await user.click(flagSwitch('User management'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const prompt = await screen.findByRole('dialog');
    await user.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('flag-MFA_USER_MANAGEMENT')).toHaveAttribute('data-state', 'changed'));
    expect(screen.queryByText('Failed to save changes. Please try again.')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("shows 'Failed to load settings' with Try Again, which reloads the page", async () => {
    listAnswer = () => Response.json({ error: 'Authentication required', code: 'INTERNAL_ERROR' }, { status: 500 });
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const { user } = renderPanel();
    expect(await screen.findByRole('heading', { name: 'Failed to load settings' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalled();
    await act(async () => {});
  });
});
