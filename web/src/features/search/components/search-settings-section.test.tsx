import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_SEARCH_MSG, SEARCH_LANGUAGES, type SearchSettingsResponse } from '@strongroom/contracts';
import { Toaster } from '@/components/ui/toaster';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SearchSettingsSection } from './search-settings-section';

function settings(over: Partial<SearchSettingsResponse> = {}): SearchSettingsResponse {
  return {
    language: 'english',
    ocrLanguages: ['eng'],
    languages: SEARCH_LANGUAGES.map((l) => ({ config: l.config, name: l.name })),
    availableOcrLanguages: [
      { code: 'eng', name: 'English' },
      { code: 'deu', name: 'German' },
      { code: 'fra', name: 'French' },
    ],
    counts: { pending: 2, indexed: 1234, no_text: 5, failed: 1 },
    reindex: null,
    ...over,
  };
}

function renderSection(initial: SearchSettingsResponse = settings()) {
  let current = initial;
  const calls = stubFetch(({ method, path, body }) => {
    if (path === '/_api/settings/search' && method === 'POST') {
      current = { ...current, ...(body as Partial<SearchSettingsResponse>) };
      return Response.json(current);
    }
    if (path === '/_api/settings/search') return Response.json(current);
    if (path === '/_api/settings/search/reindex') {
      const reindex = { state: 'running' as const, startedAt: '2026-11-28T03:00:00.000Z', finishedAt: null, total: 1242, done: 0 };
      current = { ...current, reindex };
      return Response.json({ message: DOCUMENT_SEARCH_MSG.reindexStarted, reindex });
    }
    return Response.json({ error: 'not here' }, { status: 404 });
  });
  const r = renderWithClient(
    <>
      <SearchSettingsSection />
      <Toaster />
    </>,
  );
  return { ...r, calls };
}

describe('Settings → Document search', () => {
  it('shows the files by text state', async () => {
    renderSection();
    const region = await screen.findByRole('region', { name: DOCUMENT_SEARCH_MSG.settingsTitle });
    expect(await within(region).findByText('1,234')).toBeInTheDocument();
    expect(within(region).getByText('Text pending')).toBeInTheDocument();
    expect(within(region).getByText('Text failed')).toBeInTheDocument();
  });

  it('saves a new language and OCR languages, then offers to re-index and starts it', async () => {
    const r = renderSection();
    await r.user.click(await screen.findByRole('combobox', { name: 'Search language' }));
    await r.user.click(await screen.findByRole('option', { name: 'German' }));
    await r.user.click(screen.getByRole('checkbox', { name: 'German' }));
    await r.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(r.calls.some((c) => c.method === 'POST' && c.path === '/_api/settings/search')).toBe(true));
    expect(r.calls.find((c) => c.method === 'POST' && c.path === '/_api/settings/search')!.body).toEqual({
      language: 'german',
      ocrLanguages: ['eng', 'deu'],
    });
    expect((await screen.findAllByText(DOCUMENT_SEARCH_MSG.settingsSaved))[0]).toBeInTheDocument();
    const offer = await screen.findByRole('dialog');
    expect(offer).toHaveTextContent(DOCUMENT_SEARCH_MSG.reindexOffer);
    await r.user.click(within(offer).getByRole('button', { name: 'Re-index' }));
    await waitFor(() => expect(r.calls.some((c) => c.path === '/_api/settings/search/reindex')).toBe(true));
    expect(await screen.findByText('Re-indexing: 0 of 1,242 files')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Re-index all documents/ })).toBeDisabled();
  });

  it('does not offer a re-index when only the OCR languages changed', async () => {
    const r = renderSection();
    await r.user.click(await screen.findByRole('checkbox', { name: 'French' }));
    await r.user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText(DOCUMENT_SEARCH_MSG.settingsSaved))[0]).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows a running re-index's progress and says when one is already running", async () => {
    const running = { state: 'running' as const, startedAt: '2026-11-28T03:00:00.000Z', finishedAt: null, total: 200, done: 50 };
    renderSection(settings({ reindex: running }));
    expect(await screen.findByText('Re-indexing: 50 of 200 files')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Re-index progress' })).toHaveAttribute('aria-valuenow', '25');
  });
});
