import { screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, MSG, type Role, type SessionUser } from '@strongroom/contracts';
import { sessionQueryKey, type SessionData } from '@/features/auth/api/get-session';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { ProtectedLayout } from './protected-layout';

function signedIn(role: Role): QueryClient {
  const user: SessionUser = {
    id: 7,
    email: 'gus@firm.test',
    displayName: 'Gus Guest',
    profileId: 'p7',
    organizationId: 'org-1',
    organizationName: 'Firm',
    role,
    status: 'active',
    permissions: DEFAULT_PERMISSIONS[role],
    mfaSetupRequired: false,
    mfaEnabled: true,
    mfaPrimaryMethod: 'email',
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const session: SessionData = {
    user,
    session: {
      expiresAt: new Date('2099-01-01T00:00:00.000Z'),
      absoluteExpiresAt: new Date('2099-01-01T00:00:00.000Z'),
      idleTimeoutSeconds: 3600,
    },
    apiVersion: null,
  };
  client.setQueryData(sessionQueryKey, session);
  return client;
}

function renderAt(path: string, role: Role) {
  stubFetch(() => Response.json({ error: 'not here', code: 'NOT_FOUND' }, { status: 404 }));
  return renderWithClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route element={<ProtectedLayout />}>
          <Route index element={<p>Dashboard page</p>} />
          <Route path="/matters" element={<p>Matters page</p>} />
          <Route path="/matters/:matterId" element={<p>Matter workspace</p>} />
          <Route path="/settings" element={<p>Settings page</p>} />
          <Route path="/audit-logs" element={<p>Audit logs page</p>} />
          <Route path="/help" element={<p>Help page</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
    { client: signedIn(role) },
  );
}

describe('a guest in the shell', () => {
  it('lands on the matters shared with them, with only Matters, Settings (their own account) and Help in the navigation', async () => {
    renderAt('/', 'guest');
    expect(await screen.findByText('Matters page')).toBeInTheDocument();
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Matters', 'Settings', 'Help']);
  });

  it('opens a shared matter on its own page', async () => {
    renderAt('/matters/11111111-1111-4111-8111-111111111111', 'guest');
    expect(await screen.findByText('Matter workspace')).toBeInTheDocument();
  });

  it('opens Settings for their own account', async () => {
    renderAt('/settings', 'guest');
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
  });

  it('sees Access Denied on any other page, with a way back to the shared matters', async () => {
    renderAt('/audit-logs', 'guest');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText(MSG.accessDenied('guest'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Shared matters' })).toHaveAttribute('href', '/matters');
    expect(screen.queryByText('Audit logs page')).toBeNull();
  });

  it('a user keeps every page', async () => {
    renderAt('/settings', 'user');
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    expect(within(nav).getAllByRole('link')).toHaveLength(7);
  });
});
