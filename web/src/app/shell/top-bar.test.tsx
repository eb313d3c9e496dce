import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS, type Permissions, type Role, type SessionUser } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { TopBar } from './top-bar';

function person(role: Role, permissions: Partial<Permissions> = {}): SessionUser {
  return {
    id: 7,
    email: 'pat@firm.test',
    displayName: 'Pat Person',
    profileId: 'p7',
    organizationId: 'org-1',
    organizationName: 'Firm',
    role,
    status: 'active',
    permissions: { ...DEFAULT_PERMISSIONS[role], ...permissions },
    mfaSetupRequired: false,
    mfaEnabled: true,
    mfaPrimaryMethod: 'email',
  };
}

function renderFor(user: SessionUser) {
  stubFetch(() => Response.json({ error: 'not here', code: 'NOT_FOUND' }, { status: 404 }));
  return renderWithClient(
    <MemoryRouter>
      <TopBar user={user} onOpenNavigation={vi.fn()} onLogout={vi.fn()} />
    </MemoryRouter>,
  );
}

// The same people the server test of the invite rule walks: the button shows for exactly those it lets invite.
const people: [string, SessionUser, boolean, string[]][] = [
  ['an administrator', person('admin'), true, ['User', 'Guest', 'Admin']],
  ['a user with canInviteUsers', person('user', { canInviteUsers: true }), true, ['Guest']],
  ['a user with canManageUsers', person('user', { canManageUsers: true }), true, ['User', 'Guest']],
  ['a plain member', person('user'), false, []],
  ['a guest, even with canInviteUsers set', person('guest', { canInviteUsers: true }), false, []],
];

describe('the top bar’s Invite User button', () => {
  it.each(people)(
    '%s: shown to exactly those the server lets invite, offering the roles they may invite',
    async (_kind, user, shown, roles) => {
      const r = renderFor(user);
      const button = screen.queryByRole('button', { name: 'Invite User' });
      if (!shown) {
        expect(button).toBeNull();
        return;
      }
      await r.user.click(button!);
      const dialog = await screen.findByRole('dialog', { name: 'Invite New Team Member' });
      await r.user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
      expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(roles);
    },
  );
});
