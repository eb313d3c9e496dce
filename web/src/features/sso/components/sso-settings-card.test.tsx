import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SSO_MSG, type SsoSettings, type UpdateSsoSettingsRequest } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { SsoSettingsCard } from './sso-settings-card';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('@/lib/toast', () => ({ toast: { ...toasts, warning: vi.fn(), info: vi.fn(), message: vi.fn(), dismiss: vi.fn() } }));

const empty: SsoSettings = {
  configured: false,
  displayName: '',
  issuer: '',
  clientId: '',
  clientSecretSet: false,
  domains: [],
  enabled: false,
  jitEnabled: false,
  jitRole: 'user',
  requireSso: false,
  providerMfaCounts: false,
  redirectUri: 'https://archive.firm.test/_api/auth/sso/callback',
  updatedAt: null,
};

let calls: FetchCall[];
let answer: () => Response;

beforeEach(() => {
  toasts.success.mockClear();
  answer = () => Response.json({ success: true, message: SSO_MSG.saved, settings: { ...empty, configured: true, clientSecretSet: true } });
  calls = stubFetch(({ path, method }) => {
    if (path === '/_api/settings/sso' && method === 'GET') return Response.json(empty);
    if (path === '/_api/settings/sso' && method === 'POST') return answer();
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

describe('the single sign-on card', () => {
  it('shows the redirect URI to register and sends the whole setting, domains split and lowercased', async () => {
    const { user } = renderWithClient(<SsoSettingsCard />);
    expect(await screen.findByTestId('sso-redirect-uri')).toHaveTextContent(empty.redirectUri);
    await user.type(screen.getByLabelText('Provider name'), 'Okta');
    await user.type(screen.getByLabelText('Issuer'), 'https://firm.okta.com');
    await user.type(screen.getByLabelText('Client ID'), 'strongroom');
    await user.type(screen.getByLabelText('Client secret'), 's3cret');
    await user.type(screen.getByLabelText('Verified email domains'), 'Firm.com, firm.co.uk');
    await user.click(screen.getByRole('switch', { name: 'Require single sign-on' }));
    await user.click(screen.getByRole('button', { name: 'Save single sign-on' }));
    expect(toasts.success).toHaveBeenCalledWith(SSO_MSG.saved);
    const sent = calls.find((c) => c.method === 'POST')?.body as UpdateSsoSettingsRequest;
    expect(sent).toMatchObject({
      displayName: 'Okta',
      issuer: 'https://firm.okta.com',
      clientId: 'strongroom',
      clientSecret: 's3cret',
      domains: ['firm.com', 'firm.co.uk'],
      enabled: true,
      requireSso: true,
      jitEnabled: false,
    });
  });

  it('shows the server’s refusal in the card', async () => {
    answer = () => Response.json({ error: SSO_MSG.domainTaken('firm.com'), code: 'CONFLICT_ERROR' }, { status: 409 });
    const { user } = renderWithClient(<SsoSettingsCard />);
    await user.type(await screen.findByLabelText('Provider name'), 'Okta');
    await user.click(screen.getByRole('button', { name: 'Save single sign-on' }));
    expect(await screen.findByText(SSO_MSG.domainTaken('firm.com'))).toBeInTheDocument();
  });
});
