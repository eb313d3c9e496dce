import { act } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@strongroom/contracts';
import { sessionQueryOptions, setSessionData } from '@/features/auth/api/get-session';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { trackActiveUpload } from '@/features/uploads/lib/saved-uploads';
import { LAST_OWNER_KEY, noteSignedInUser } from '@/lib/session-end';
import { renderWithClient } from '@/test/dom';
import { queryClient } from './query-client';

const saved = (org: string, name: string) => `strongroom.upload:${org}:${name}:209715200:1700000000000`;
const state = (org: string) => JSON.stringify({ organizationId: org, uploadId: 'u1', s3Key: 'k1', uploadedChunks: [] });

function user(id: number, organizationId: string): SessionUser {
  return { id, organizationId, email: `u${id}@firm.test`, displayName: `User ${id}` } as unknown as SessionUser;
}

function seed() {
  localStorage.setItem(saved('org-a', 'deposition.mp4'), state('org-a'));
  localStorage.setItem(saved('org-a', 'exhibits.zip'), state('org-a'));
  localStorage.setItem(saved('org-b', 'contract.pdf'), state('org-b'));
  localStorage.setItem('strongroom.theme', 'dark');
}

const uploadKeys = () =>
  Object.keys(localStorage)
    .filter((k) => k.startsWith('strongroom.upload:'))
    .sort();

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('saved upload state when the user leaves', () => {
  it("logout removes the organization's saved uploads, cancels its running ones first, and keeps other organizations' and other settings", async () => {
    seed();
    setSessionData(queryClient, { user: user(7, 'org-a'), session: null, apiVersion: null });
    const paths: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        paths.push(url);
        return Response.json({ success: true });
      }),
    );
    const stopped: string[] = [];
    const untrack = trackActiveUpload('org-a', async () => {
      // The cancel runs while the session is still there: logout has not been called yet.
      stopped.push(paths.includes('/_api/auth/logout') ? 'after logout' : 'before logout');
    });
    trackActiveUpload('org-b', async () => {
      stopped.push('org-b');
    });
    const out: { logout?: () => Promise<void> } = {};
    function Harness() {
      out.logout = useLogout().logout;
      return null;
    }
    renderWithClient(
      <MemoryRouter>
        <Harness />
      </MemoryRouter>,
      { client: queryClient },
    );
    await act(async () => {
      await out.logout!();
    });
    untrack();
    expect(paths).toContain('/_api/auth/logout');
    expect(stopped).toEqual(['before logout']);
    expect(uploadKeys()).toEqual([saved('org-b', 'contract.pdf')]);
    expect(localStorage.getItem('strongroom.theme')).toBe('dark');
    expect(localStorage.getItem(LAST_OWNER_KEY)).toBeNull();
  });

  it("another user signing in on this browser clears the previous user's organization, the same user keeps it", async () => {
    seed();
    let signedIn = user(7, 'org-a');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ user: signedIn, session: { expiresAt: new Date(Date.now() + 3_600_000).toISOString() }, apiVersion: null }),
      ),
    );
    await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
    await vi.waitFor(() => expect(localStorage.getItem(LAST_OWNER_KEY)).toContain('org-a'));
    // The same user again (a reload, a new session): the resumable uploads stay.
    await noteSignedInUser({ userId: 7, organizationId: 'org-a' });
    expect(uploadKeys()).toHaveLength(3);

    signedIn = user(9, 'org-c');
    await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
    await vi.waitFor(() => expect(localStorage.getItem(LAST_OWNER_KEY)).toContain('org-c'));
    expect(uploadKeys()).toEqual([saved('org-b', 'contract.pdf')]);
  });
});
