import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_MSG, type NotificationItem, type NotificationsResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { NotificationsButton } from './notifications-button';

const HOLD: NotificationItem = {
  id: 'audit-101',
  kind: 'legal_hold',
  title: 'Legal hold',
  sentence: 'Ada Lovelace placed “Smith v Jones” under legal hold',
  action: 'APPLY_LEGAL_HOLD',
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  read: false,
  link: { type: 'matter', matterId: 'm-1' },
};
const VAULTED: NotificationItem = {
  id: 'audit-102',
  kind: 'vault',
  title: 'Matter vaulted',
  sentence: 'Ada Lovelace vaulted “Estate of Quill” for 7 years',
  action: 'VAULT_MATTER',
  createdAt: new Date(Date.now() - 60 * 60_000).toISOString(),
  read: false,
  link: { type: 'vault', matterId: 'm-2' },
};
const MFA: NotificationItem = {
  id: 'audit-103',
  kind: 'security',
  title: 'Second factor reset',
  sentence: 'Ada Lovelace reset the second factor of Pat Member',
  action: 'RESET_USER_MFA',
  createdAt: '2026-11-20T10:00:00.000Z',
  read: true,
  link: { type: 'audit', auditLogId: 'log-9' },
};

function Where() {
  const l = useLocation();
  return <output aria-label="location">{l.pathname + l.search}</output>;
}

/** The server at the network boundary: the list with its read state, and the read calls that change it. */
function serve(items: NotificationItem[]) {
  let list = items.map((n) => ({ ...n }));
  const unread = () => list.filter((n) => !n.read).length;
  const calls = stubFetch((call: FetchCall) => {
    if (call.path === '/_api/notifications')
      return Response.json({ notifications: list, unreadCount: unread() } satisfies NotificationsResponse);
    if (call.path === '/_api/notifications/read') {
      const body = call.body as { notificationIds?: string[]; all?: true };
      list = list.map((n) => (body.all || body.notificationIds?.includes(n.id) ? { ...n, read: true } : n));
      return Response.json({ unreadCount: unread() });
    }
    return Response.json({ error: 'Not found' }, { status: 404 });
  });
  const r = renderWithClient(
    <MemoryRouter>
      <NotificationsButton />
      <Where />
    </MemoryRouter>,
  );
  return { ...r, calls, user: userEvent.setup() };
}

describe('the bell', () => {
  it('shows the unread count, said in words to screen readers', async () => {
    serve([HOLD, VAULTED, MFA]);
    const bell = await screen.findByRole('button', { name: `${NOTIFICATION_MSG.title}, 2 unread notifications` });
    expect(within(bell).getByTestId('notifications-badge')).toHaveTextContent('2');
  });

  it('lists the notifications, newest first, with the unread ones marked', async () => {
    const { user } = serve([HOLD, VAULTED, MFA]);
    await user.click(await screen.findByRole('button', { name: /unread notifications/ }));
    const panel = await screen.findByRole('dialog', { name: NOTIFICATION_MSG.title });
    const rows = within(await within(panel).findByRole('list', { name: NOTIFICATION_MSG.title })).getAllByRole('link');
    expect(rows.map((r) => r.getAttribute('data-read'))).toEqual(['false', 'false', 'true']);
    expect(rows[0]).toHaveTextContent('Ada Lovelace placed “Smith v Jones” under legal hold');
    expect(within(rows[0]!).getByText(NOTIFICATION_MSG.unread)).toBeInTheDocument();
    expect(within(rows[2]!).queryByText(NOTIFICATION_MSG.unread)).toBeNull();
    // Each leads where its event is: the matter, the vault entry, the audit log row.
    expect(rows[0]).toHaveAttribute('href', '/matters/m-1');
    expect(rows[1]).toHaveAttribute('href', '/vault?matter=m-2');
    expect(rows[2]!.getAttribute('href')).toMatch(/^\/audit-logs\?entry=log-9&action=RESET_USER_MFA&day=2026-11-2\d$/);
  });

  it('opening one follows its link, marks it read on the server and closes the panel', async () => {
    const { user, calls } = serve([HOLD, VAULTED]);
    await user.click(await screen.findByRole('button', { name: /2 unread notifications/ }));
    const panel = await screen.findByRole('dialog', { name: NOTIFICATION_MSG.title });
    await user.click(await within(panel).findByRole('link', { name: /Estate of Quill/ }));
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent('/vault?matter=m-2');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: NOTIFICATION_MSG.title })).toBeNull());
    expect(calls.find((c) => c.path === '/_api/notifications/read')?.body).toEqual({ notificationIds: ['audit-102'] });
    await screen.findByRole('button', { name: `${NOTIFICATION_MSG.title}, 1 unread notification` });
  });

  it("'Mark all as read' reads them all; the count goes and the button is then disabled", async () => {
    const { user, calls } = serve([HOLD, VAULTED]);
    await user.click(await screen.findByRole('button', { name: /2 unread notifications/ }));
    const panel = await screen.findByRole('dialog', { name: NOTIFICATION_MSG.title });
    await user.click(within(panel).getByRole('button', { name: NOTIFICATION_MSG.markAllRead }));
    await waitFor(() => expect(within(panel).getByRole('button', { name: NOTIFICATION_MSG.markAllRead })).toBeDisabled());
    expect(calls.find((c) => c.path === '/_api/notifications/read')?.body).toEqual({ all: true });
    expect(screen.getByRole('button', { name: NOTIFICATION_MSG.title })).toBeInTheDocument();
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
  });

  it('says so when there is nothing', async () => {
    const { user } = serve([]);
    await user.click(await screen.findByRole('button', { name: NOTIFICATION_MSG.title }));
    expect(await screen.findByRole('heading', { name: NOTIFICATION_MSG.empty })).toBeInTheDocument();
  });

  it('offers Retry when the list cannot be read', async () => {
    let fail = true;
    stubFetch(() =>
      fail ? Response.json({ error: 'Database unavailable' }, { status: 503 }) : Response.json({ notifications: [HOLD], unreadCount: 1 }),
    );
    const user = userEvent.setup();
    renderWithClient(
      <MemoryRouter>
        <NotificationsButton />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: NOTIFICATION_MSG.title }));
    const panel = await screen.findByRole('dialog', { name: NOTIFICATION_MSG.title });
    expect(await within(panel).findByRole('heading', { name: NOTIFICATION_MSG.failed })).toBeInTheDocument();
    fail = false;
    await user.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await within(panel).findByRole('link', { name: /Smith v Jones/ })).toBeInTheDocument();
  });
});
