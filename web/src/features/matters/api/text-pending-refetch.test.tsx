import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeTreeDto } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { makeNode } from '@/test/node';
import { useMatterDetail } from './get-matter-detail';

function States() {
  const detail = useMatterDetail('m1', 'root');
  return <p data-testid="states">{(detail.data?.nodes ?? []).map((n) => n.textState ?? '-').join(',')}</p>;
}

afterEach(() => vi.useRealTimers());

describe("a folder whose files' text is being read", () => {
  it('is asked for again every 5 s while a file is pending, and no more once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers: NodeTreeDto[][] = [[makeNode({ id: 'f1', textState: 'pending' })], [makeNode({ id: 'f1', textState: 'indexed' })]];
    const calls = stubFetch(() => Response.json({ matter: makeMatter(), nodes: answers[Math.min(calls.length - 1, 1)] }));
    renderWithClient(<States />);
    expect(await screen.findByText('pending')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await screen.findByText('indexed')).toBeInTheDocument();
    const asked = calls.length;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(calls).toHaveLength(asked);
  });
});
