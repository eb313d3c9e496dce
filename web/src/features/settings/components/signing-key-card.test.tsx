import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, SIGNING_KEYS_MSG, SIGNING_KEYS_PATH, type SigningKeysResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SigningKeyCard } from './signing-key-card';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('@/lib/toast', () => ({ toast: { ...toasts, warning: vi.fn(), info: vi.fn(), message: vi.fn(), dismiss: vi.fn() } }));

const OLD = 'a'.repeat(64);
const CURRENT = '0123456789abcdef'.repeat(4);
let answer: () => Response;

function key(fingerprint: string, notAfter: string | null): SigningKeysResponse['keys'][number] {
  return {
    keyId: fingerprint,
    algorithm: 'Ed25519',
    publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
    fingerprint,
    notBefore: '2026-01-01T00:00:00.000Z',
    notAfter,
  };
}

beforeEach(() => {
  toasts.success.mockClear();
  toasts.error.mockClear();
  answer = () => Response.json({ keys: [key(OLD, '2026-06-01T00:00:00.000Z'), key(CURRENT, null)] } satisfies SigningKeysResponse);
  stubFetch(({ path }) =>
    path === SIGNING_KEYS_PATH ? answer() : Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 }),
  );
});

describe('the signing key card', () => {
  it('shows the key in use as grouped hex, says what to do with it and links to the published keys', async () => {
    renderWithClient(<SigningKeyCard />);
    const card = screen.getByRole('region', { name: 'Signing Key' });
    const fingerprint = await within(card).findByTestId('signing-key-fingerprint');
    expect(fingerprint).toHaveTextContent('0123 4567 89ab cdef 0123 4567 89ab cdef 0123 4567 89ab cdef 0123 4567 89ab cdef');
    expect(fingerprint).toHaveAttribute('data-fingerprint', CURRENT);
    expect(fingerprint.className).toContain('font-mono');
    expect(within(card).queryByText(/aaaa/)).toBeNull();
    expect(within(card).getByText(SIGNING_KEYS_MSG.printInLetters)).toBeInTheDocument();
    expect(within(card).getByText(/An earlier key stays published/)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /Published signing keys/ })).toHaveAttribute('href', SIGNING_KEYS_PATH);
  });

  it('copies the plain fingerprint and says so', async () => {
    const { user } = renderWithClient(<SigningKeyCard />);
    await screen.findByTestId('signing-key-fingerprint');
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(CURRENT);
    expect(toasts.success).toHaveBeenCalledWith(SIGNING_KEYS_MSG.fingerprintCopied);
  });

  it('says when copying is not possible', async () => {
    const { user } = renderWithClient(<SigningKeyCard />);
    await screen.findByTestId('signing-key-fingerprint');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(toasts.error).toHaveBeenCalledWith(MSG.copyFailed);
  });

  it('says when no key is published yet, and when the list cannot be loaded', async () => {
    answer = () => Response.json({ keys: [] });
    const first = renderWithClient(<SigningKeyCard />);
    expect(await screen.findByText(SIGNING_KEYS_MSG.noKeyYet)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();
    first.unmount();

    answer = () => Response.json({ error: 'The service is unavailable.', code: 'INTERNAL' }, { status: 500 });
    renderWithClient(<SigningKeyCard />);
    expect(await screen.findByText('Could not load the signing key')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
