import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DASHBOARD_MSG } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SelectMatterDialog } from './select-matter-dialog';

const matter = (id: string, matterName: string) => ({
  id,
  organizationId: 'org_1',
  matterName,
  matterNumber: 'MAT-2026-001',
  clientName: 'Quill Trust',
  description: null,
  responsibleLawyer: 'Nora North',
  status: 'Open',
  isVaulted: false,
  legalHold: false,
  holdReason: null,
  retentionExpiresAt: null,
  vaultedAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  version: 1,
});

describe('Select Matter', () => {
  it('searches after more than 1 character, 10 by name A to Z, and hands over the chosen matter', async () => {
    const calls = stubFetch(() => Response.json({ matters: [matter('m1', 'Estate of Ivor Quill')], totalCount: 1 }));
    const onSelect = vi.fn();
    const { user } = renderWithClient(<SelectMatterDialog open onOpenChange={() => {}} onSelect={onSelect} />);
    const search = screen.getByLabelText(DASHBOARD_MSG.selectMatterSearch);
    await user.type(search, 'E');
    expect(screen.getByText(DASHBOARD_MSG.selectMatterHint)).toBeInTheDocument();
    await user.type(search, 's');
    await user.click(await screen.findByRole('radio', { name: /Estate of Ivor Quill/ }));
    const q = calls.at(-1)!.url.searchParams;
    expect(calls.at(-1)!.path).toBe('/_api/matters/list');
    expect([q.get('search'), q.get('pageSize'), q.get('sortBy'), q.get('sortDirection')]).toEqual(['Es', '10', 'matter_name', 'asc']);
    await user.click(screen.getByRole('button', { name: DASHBOARD_MSG.selectMatterContinue }));
    expect(onSelect).toHaveBeenCalledWith({ id: 'm1', matterName: 'Estate of Ivor Quill' });
  });

  it("says 'Please select a matter.' when continued with none chosen", async () => {
    const calls = stubFetch(() => Response.json({ matters: [], totalCount: 0 }));
    const onSelect = vi.fn();
    const { user } = renderWithClient(<SelectMatterDialog open onOpenChange={() => {}} onSelect={onSelect} />);
    await user.click(screen.getByRole('button', { name: DASHBOARD_MSG.selectMatterContinue }));
    expect(screen.getByRole('alert')).toHaveTextContent(DASHBOARD_MSG.selectMatterRequired);
    expect(onSelect).not.toHaveBeenCalled();
    await waitFor(() => expect(calls).toHaveLength(0));
  });
});
