import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { VaultedMatter } from '@/lib/dates';
import { makeMatter } from '@/test/matter';
import { VaultCards } from './vault-cards';

function vaulted(n: number, overrides: Partial<VaultedMatter> = {}): VaultedMatter {
  return {
    ...makeMatter({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      matterName: `Matter ${n}`,
      clientName: `Client ${n}`,
      status: 'Vaulted',
      isVaulted: true,
      legalHold: true,
      vaultedAt: new Date('2026-02-01T09:30:00.000Z'),
      retentionExpiresAt: null,
    }),
    transferState: 'completed',
    fileCount: 2,
    totalBytes: 2048,
    lastVerification: null,
    ...overrides,
  };
}

const HELD = vaulted(1);
const CHECKED = vaulted(2, {
  legalHold: false,
  clientName: null,
  lastVerification: { checkedAt: '2026-03-01T00:00:00.000Z', result: 'passed', objectsChecked: 2, failures: 0 },
});

describe('the vault list as cards on a phone', () => {
  it("shows each matter with what its table row shows, and opens its details from the card's View Details", async () => {
    const onView = vi.fn();
    render(<VaultCards matters={[HELD, CHECKED]} loading={false} density="comfortable" onView={onView} selectedId={CHECKED.id} />);
    const cards = within(screen.getByRole('list', { name: 'Vaulted matters' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);

    const [held, checked] = cards as [HTMLElement, HTMLElement];
    for (const text of ['Matter 1', 'Client 1', 'Vaulted At', 'Retention Ends', 'Permanent', 'Legal Hold', 'Active', 'Not yet']) {
      expect(held).toHaveTextContent(text);
    }
    for (const text of ['Matter 2', 'No client', 'Inactive', 'Passed']) expect(checked).toHaveTextContent(text);
    // The matter last opened stays marked, as its row does.
    expect(checked).toHaveAttribute('aria-current', 'true');
    expect(held).not.toHaveAttribute('aria-current');

    await userEvent.click(within(held).getByRole('button', { name: 'View details of Matter 1' }));
    expect(onView).toHaveBeenCalledWith(HELD);
  });

  it('shows placeholders while the list loads', () => {
    render(<VaultCards matters={[]} loading density="compact" onView={() => {}} selectedId={null} />);
    expect(screen.getByRole('list', { name: 'Vaulted matters' })).toHaveAttribute('aria-busy', 'true');
  });
});
