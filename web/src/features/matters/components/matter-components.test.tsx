import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MATTER_MSG, type MatterDto } from '@strongroom/contracts';
import { button, byLabel, byText, click, mount, typeInto, waitFor, type Mounted } from '@/test/dom';
import { EditMatterDialog } from './edit-matter-dialog';
import { EMPTY_FILTERS, MatterFilters } from './matter-filters';
import { PartyAutocomplete } from './party-autocomplete';

type Call = { url: string; body: unknown };
let calls: Call[];
let answer: (url: string) => Response;
let mounted: Mounted | null;

beforeEach(() => {
  calls = [];
  mounted = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(init.body as string) : undefined });
      return answer(url);
    }),
  );
});

afterEach(() => {
  mounted?.unmount();
  document.body.innerHTML = '';
});

function openList(input: HTMLElement) {
  act(() => {
    input.focus();
    input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
  });
}

describe('client and lawyer suggestions', () => {
  it("read '{n} matters' for every count, one included", async () => {
    answer = () =>
      Response.json([
        { clientName: 'Acme Holdings', matterCount: 1, isFrequentClient: false },
        { clientName: 'Baxter & Co', matterCount: 4, isFrequentClient: true },
      ]);
    mounted = mount(<PartyAutocomplete kind="client" aria-label="Client" value="" onValueChange={() => {}} emptyMessage="No clients found." />);
    openList(mounted.container.querySelector('input')!);
    await waitFor(() => expect(mounted!.container.textContent).toContain('Acme Holdings'));
    const options = [...mounted.container.querySelectorAll('[role="option"]')].map((o) => o.textContent);
    expect(options).toEqual(['Acme Holdings1 matters', 'Baxter & Co4 mattersFrequent']);
  });

  it('say that loading them failed instead of showing an empty list', async () => {
    answer = () => new Response('', { status: 500 });
    mounted = mount(<PartyAutocomplete kind="client" aria-label="Client" value="" onValueChange={() => {}} emptyMessage="No clients found." />);
    openList(mounted.container.querySelector('input')!);
    const alert = await waitFor(() => {
      const a = mounted!.container.querySelector('[role="alert"]');
      if (!a) throw new Error('no alert yet');
      return a;
    });
    expect(alert.textContent).toBe(MATTER_MSG.fetchClientsFailed);
    expect(mounted.container.textContent).not.toContain('No clients found.');
  });

  it("show the server's text when the failed answer has one", async () => {
    answer = () => Response.json({ error: 'Please log in to continue.', code: 'UNAUTHENTICATED' }, { status: 401 });
    mounted = mount(<PartyAutocomplete kind="lawyer" aria-label="Lawyer" value="" onValueChange={() => {}} emptyMessage="No lawyers found." />);
    openList(mounted.container.querySelector('input')!);
    await waitFor(() => expect(mounted!.container.querySelector('[role="alert"]')?.textContent).toBe('Please log in to continue.'));
  });
});

describe('the status filter', () => {
  it("offers 'All' first and shows it when no status is chosen", () => {
    answer = () => Response.json([]);
    mounted = mount(<MatterFilters value={EMPTY_FILTERS} onChange={() => {}} />);
    const trigger = mounted.container.querySelector('[aria-label="Status"]')!;
    expect(trigger.textContent).toBe('All');
    act(() => {
      trigger.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    const options = [...document.querySelectorAll('[role="option"]')].map((o) => o.textContent);
    expect(options).toEqual(['All', 'Open', 'Vaulted']);
  });
});

const matter: MatterDto = {
  id: '6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60',
  organizationId: 'org-1',
  matterName: 'Lease dispute',
  matterNumber: 'MAT-2026-001',
  clientName: 'Acme Holdings',
  description: 'Commercial lease',
  responsibleLawyer: 'Jane Counsel',
  status: 'Open',
  isVaulted: false,
  legalHold: false,
  holdReason: null,
  retentionExpiresAt: null,
  vaultedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 3,
};

describe('Edit Matter', () => {
  const updates = () => calls.filter((c) => c.url === '/_api/matters/update');

  beforeEach(() => {
    answer = (url) => (url === '/_api/matters/update' ? Response.json({ matter: { ...matter, clientName: null, responsibleLawyer: null, version: 4 } }) : Response.json([]));
  });

  it('sends an emptied client and lawyer as null, so the server clears them, and leaves the rest out', async () => {
    const onOpenChange = vi.fn();
    mounted = mount(<EditMatterDialog matter={matter} open onOpenChange={onOpenChange} />);
    typeInto(byLabel('Client Name'), '');
    typeInto(byLabel('Responsible Attorney'), '');
    click(button('Save Changes'));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]!.body).toEqual({ matterId: matter.id, expectedVersion: 3, matterName: 'Lease dispute', clientName: null, responsibleLawyer: null });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it("refuses to empty the number, with the reason on the form, and sends nothing", async () => {
    mounted = mount(<EditMatterDialog matter={matter} open onOpenChange={() => {}} />);
    typeInto(byLabel('Matter Number'), '');
    click(button('Save Changes'));
    await waitFor(() => byText(MATTER_MSG.matterNumberNotRemovable));
    expect(updates()).toHaveLength(0);
  });

  it("uses its own texts for a missing name and a long description", async () => {
    mounted = mount(<EditMatterDialog matter={matter} open onOpenChange={() => {}} />);
    typeInto(byLabel('Matter Name'), '   ');
    typeInto(byLabel('Description'), 'x'.repeat(2001));
    click(button('Save Changes'));
    await waitFor(() => byText('Matter name is required'));
    byText('Description must not exceed 2000 characters');
    expect(document.body.textContent).not.toContain('Matter name is required.');
    expect(updates()).toHaveLength(0);
  });
});
