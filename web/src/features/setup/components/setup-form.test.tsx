import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SetupScreen } from './setup-form';

let setupAnswer: () => Response;

beforeEach(() => {
  stubFetch(({ path }) => {
    if (path === '/_api/setup/status') return Response.json({ needsSetup: true });
    if (path === '/_api/setup') return setupAnswer();
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

async function submit() {
  const onDone = vi.fn();
  const { user } = renderWithClient(
    <MemoryRouter>
      <SetupScreen onDone={onDone} />
    </MemoryRouter>,
  );
  await user.type(await screen.findByLabelText('Setup token'), 'token-from-the-log');
  await user.type(screen.getByLabelText('Firm name'), 'First Firm LLP');
  await user.type(screen.getByLabelText('Your full name'), 'Fay First');
  await user.type(screen.getByLabelText('Email'), 'fay@first.test');
  await user.type(screen.getByLabelText('Password'), 'first password');
  await user.click(screen.getByRole('button', { name: 'Set Up Strongroom' }));
  return { onDone };
}

describe('the setup form and a 409', () => {
  it('shows Already set up when the server says so by its reason', async () => {
    setupAnswer = () =>
      Response.json({ error: MSG.setupDone, code: 'CONFLICT_ERROR', details: { reason: 'ALREADY_SET_UP' } }, { status: 409 });
    const { onDone } = await submit();
    expect(await screen.findByRole('heading', { name: 'Already set up' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
    expect(onDone).not.toHaveBeenCalled();
  });

  it('keeps the form and shows the text of any other refusal of the server, e.g. an address that has an account', async () => {
    setupAnswer = () =>
      Response.json(
        { error: MSG.invitationAccountExists, code: 'CONFLICT_ERROR', details: { reason: 'ACCOUNT_EXISTS', field: 'adminEmail' } },
        { status: 409 },
      );
    await submit();
    const form = screen.getByRole('button', { name: 'Set Up Strongroom' }).closest('form')!;
    expect(await within(form).findByText(MSG.invitationAccountExists)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Already set up' })).toBeNull();
  });

  it('does not take a server 409 that names no reason for Already set up', async () => {
    setupAnswer = () => Response.json({ error: 'Something else conflicted.', code: 'CONFLICT_ERROR' }, { status: 409 });
    await submit();
    expect(await screen.findByText('Something else conflicted.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Already set up' })).toBeNull();
  });

  it('takes a bare 409 from something in front of the server (no code) by its status', async () => {
    setupAnswer = () => new Response('Conflict', { status: 409 });
    await submit();
    expect(await screen.findByRole('heading', { name: 'Already set up' })).toBeInTheDocument();
  });
});
