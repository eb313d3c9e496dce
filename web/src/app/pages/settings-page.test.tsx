import { screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, type Permissions, type Role, type SessionUser } from '@strongroom/contracts';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SettingsPage } from './settings-page';

function sessionUser(role: Role, permissions: Partial<Permissions> = {}): SessionUser {
  return {
    id: 7,
    email: 'fay@first.test',
    displayName: 'Fay First',
    profileId: 'profile-7',
    organizationId: 'first-firm',
    organizationName: 'First Firm LLP',
    role,
    status: 'active',
    permissions: { ...DEFAULT_PERMISSIONS[role], ...permissions },
    mfaSetupRequired: false,
    mfaEnabled: true,
    mfaPrimaryMethod: 'email',
  };
}

function Location() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function renderPage(role: Role, entry = '/settings', permissions: Partial<Permissions> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(sessionQueryKey, { user: sessionUser(role, permissions), session: null, apiVersion: null });
  return renderWithClient(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route
          path="/settings"
          element={
            <>
              <SettingsPage />
              <Location />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
    { client },
  );
}

beforeEach(() => {
  stubFetch(({ path }) => {
    if (path === '/_api/settings/profile') {
      return Response.json({
        fullName: 'Fay First',
        email: 'fay@first.test',
        phoneNumber: null,
        role: 'user',
        mfaEnabled: true,
        mfaPrimaryMethod: 'email',
        recoveryCodesRemaining: 0,
      });
    }
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

describe('the Settings page', () => {
  it('has the five tabs with Profile open by default', async () => {
    renderPage('admin');
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
    const names = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(names).toEqual(['Profile', 'Organization', 'Team & Permissions', 'Security', 'Retention & Vault']);
    expect(screen.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('region', { name: 'Personal Information' })).toBeInTheDocument();
  });

  it('keeps the open tab in the address', async () => {
    const { user } = renderPage('admin');
    await user.click(screen.getByRole('tab', { name: 'Retention & Vault' }));
    expect(screen.getByTestId('location')).toHaveTextContent('?tab=retention');
    await user.click(screen.getByRole('tab', { name: 'Profile' }));
    expect(screen.getByTestId('location')).toBeEmptyDOMElement();
  });

  it('disables the Security tab for a non-admin, and a link to it opens Profile', () => {
    renderPage('user', '/settings?tab=security');
    expect(screen.getByRole('tab', { name: 'Security' })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  });

  it('gives a guest the Profile tab alone (their details, password, second factor), whatever the link asks for', async () => {
    for (const entry of [
      '/settings',
      '/settings?tab=organization',
      '/settings?tab=team',
      '/settings?tab=retention',
      '/settings?tab=security',
    ]) {
      const { unmount } = renderPage('guest', entry);
      expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Profile']);
      expect(screen.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
      unmount();
    }
    renderPage('guest');
    expect(await screen.findByRole('region', { name: 'Personal Information' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Security' })).toBeInTheDocument();
  });

  it('shows a plain user no Team tab (there is no team list they may read), and a link to it opens Profile', () => {
    renderPage('user', '/settings?tab=team');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Profile', 'Organization', 'Security', 'Retention & Vault']);
    expect(screen.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows the Team tab to a user who may invite guests (their read-only team list)', () => {
    renderPage('user', '/settings?tab=team', { canInviteUsers: true });
    expect(screen.getByRole('tab', { name: 'Team & Permissions' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens the Security tab from a link for an admin', async () => {
    renderPage('admin', '/settings?tab=security');
    expect(screen.getByRole('tab', { name: 'Security' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'MFA for Critical Operations' })).toBeInTheDocument();
  });
});
