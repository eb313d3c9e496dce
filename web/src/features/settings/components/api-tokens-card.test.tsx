import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API_TOKEN_MSG, type ApiToken, type ApiTokensResponse, type CreateApiTokenResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { ApiTokensCard } from './api-tokens-card';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('@/lib/toast', () => ({ toast: { ...toasts, warning: vi.fn(), info: vi.fn(), message: vi.fn(), dismiss: vi.fn() } }));

const token = (over: Partial<ApiToken> = {}): ApiToken => ({
  tokenId: '6f1c1b1e-0000-4000-8000-000000000001',
  name: 'Reception scanner',
  prefix: 'srt_AbCdEf',
  scopes: ['files:upload'],
  createdAt: '2026-11-01T00:00:00.000Z',
  expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  lastUsedAt: null,
  revokedAt: null,
  owner: { userId: 1, name: 'Ada Admin', email: 'ada@firm.test' },
  ...over,
});

let list: ApiToken[];
let calls: FetchCall[];

beforeEach(() => {
  toasts.success.mockClear();
  list = [token()];
  calls = stubFetch(({ path, method, body }) => {
    if (path === '/_api/settings/api-tokens' && method === 'GET') return Response.json({ tokens: list } satisfies ApiTokensResponse);
    if (path === '/_api/settings/api-tokens' && method === 'POST') {
      const made = token({ tokenId: '6f1c1b1e-0000-4000-8000-000000000002', name: (body as { name: string }).name });
      list = [made, ...list];
      return Response.json({
        success: true,
        message: API_TOKEN_MSG.created,
        token: 'srt_secret-shown-once',
        apiToken: made,
      } satisfies CreateApiTokenResponse);
    }
    if (path === '/_api/settings/api-tokens/revoke') {
      list = list.map((t) => ({ ...t, revokedAt: '2026-11-28T00:00:00.000Z' }));
      return Response.json({ success: true, message: API_TOKEN_MSG.revoked, apiToken: list[0] });
    }
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

describe('the API tokens card', () => {
  it('lists the tokens with their scopes and state, and revokes one', async () => {
    const { user } = renderWithClient(<ApiTokensCard isAdmin={false} />);
    const table = await screen.findByRole('table', { name: 'API tokens' });
    expect(within(table).getByText('Reception scanner')).toBeInTheDocument();
    expect(within(table).getByText('files:upload')).toBeInTheDocument();
    expect(within(table).getByText('Active')).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Revoke Reception scanner' }));
    expect(await within(table).findByText('Revoked')).toBeInTheDocument();
    expect(toasts.success).toHaveBeenCalledWith(API_TOKEN_MSG.revoked);
  });

  it('asks for a name before creating, then shows the new token once', async () => {
    const { user } = renderWithClient(<ApiTokensCard isAdmin />);
    await screen.findByRole('table', { name: 'API tokens' });
    await user.click(screen.getByRole('button', { name: 'New token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(within(dialog).getByText(API_TOKEN_MSG.nameRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'Export script');
    await user.click(within(dialog).getByLabelText(/Read audit logs/));
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('dialog', { name: 'Copy your new token' });
    expect(within(shown).getByTestId('new-api-token')).toHaveTextContent('srt_secret-shown-once');
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/_api/settings/api-tokens')?.body as {
      scopes: string[];
      expiresAt: string;
    };
    expect(sent.scopes).toEqual(['matters:read', 'audit:read']);
    expect(new Date(sent.expiresAt).getTime()).toBeGreaterThan(Date.now());
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('srt_secret-shown-once')).toBeNull();
    expect(await screen.findByRole('columnheader', { name: 'Owner' })).toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    list = [];
    renderWithClient(<ApiTokensCard isAdmin={false} />);
    expect(await screen.findByText('No API tokens')).toBeInTheDocument();
  });
});
