import { QueryClient } from '@tanstack/react-query';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUDIT_ACTION_CATEGORIES,
  ARCHIVAL_MSG,
  AUDIT_LOG_MSG,
  DEFAULT_PERMISSIONS,
  MSG,
  type AuditLogEntry,
  type SessionUser,
} from '@strongroom/contracts';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { clearSystemMfaTokens } from '@/lib/system-mfa';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { AuditLogsPage } from './audit-logs-page';

// Six people share two cores: a screen may take longer than the default second to answer.
configure({ asyncUtilTimeout: 5_000 });

const VALID_CODE = '246810';
const SYSTEM_TOKEN = 's'.repeat(64);

function entry(i: number, patch: Partial<AuditLogEntry> = {}): AuditLogEntry {
  const at = new Date(Date.UTC(2026, 10, 20, 9, 0, i)).toISOString();
  return {
    id: String(i),
    createdAt: at,
    timestamp: at,
    actor: { id: 7, name: `Person ${i}`, email: `p${i}@acme.test` },
    action: 'CREATE_MATTER',
    targetTable: 'matters',
    targetId: `m-${i}`,
    details: { matterName: `Matter ${i}`, note: 'say "hi"' },
    ipAddress: '10.0.0.1',
    archived: false,
    ...patch,
  };
}

let calls: FetchCall[];
let totalPages: number;
/** The answer's count stopped at its bound: totalCount is the bound, a lower bound. */
let capped: boolean;
let logs: AuditLogEntry[];
const listCalls = () => calls.filter((c) => c.path === '/_api/audit-logs/list').map((c) => c.url.searchParams);
const exportCalls = () => calls.filter((c) => c.path === '/_api/audit-logs/export');
let saved: { name: string; blob: Blob }[];
/** The archived entry's retrieval on the server: not started, running, done (cached) or refused. */
let retrieval: 'none' | 'running' | 'done' | 'broken';
let completeOnCheck: boolean;
const retrieveCalls = () => calls.filter((c) => c.path === '/_api/audit-logs/retrieve-archived').map((c) => c.body);
const checkCalls = () => calls.filter((c) => c.path === '/_api/audit-logs/check-retrievals').map((c) => c.body);
const ARCHIVED_DETAILS = { matterName: 'Old matter', from: 'cold storage' };

beforeEach(() => {
  totalPages = 1;
  capped = false;
  retrieval = 'none';
  completeOnCheck = false;
  logs = [entry(1), entry(2, { actor: null, action: 'AUDIT_LOG_ARCHIVED', targetTable: null, targetId: null })];
  calls = stubFetch(({ path, url, body }) => {
    if (path === '/_api/audit-logs/list') {
      const page = Number(url.searchParams.get('page'));
      if (capped) {
        const full = Array.from({ length: 50 }, (_, i) => entry(page * 100 + i));
        return Response.json({
          logs: full,
          pagination: { page, limit: 50, totalCount: 10_000, totalPages: 200, totalCountCapped: true },
          totalCount: 10_000,
        });
      }
      return Response.json({
        logs,
        pagination: { page, limit: 50, totalCount: logs.length, totalPages, totalCountCapped: false },
        totalCount: logs.length,
      });
    }
    if (path === '/_api/system/archival-stats') {
      const init = vi.mocked(fetch).mock.calls.at(-1)![1];
      if ((init?.headers as Record<string, string> | undefined)?.['x-mfa-token'] !== SYSTEM_TOKEN) {
        return Response.json(
          {
            error: 'MFA_REQUIRED',
            code: 'MFA_REQUIRED',
            mfaRequired: true,
            message: MSG.mfaRequired,
            details: { operation: 'VIEW_ARCHIVAL_STATS' },
          },
          { status: 401 },
        );
      }
      return Response.json({
        totalAuditLogs: 4321,
        archivableLogsCount: 0,
        lastArchivalDate: null,
        retentionStatus: 'Compliant',
        archivedLogsCount: 0,
      });
    }
    if (path === '/_api/auth/verifySystemMfa') {
      if ((body as { mfaToken?: string }).mfaToken !== VALID_CODE) return Response.json({ error: MSG.invalidCode }, { status: 400 });
      return Response.json({ success: true, systemMfaToken: SYSTEM_TOKEN, expiresAt: new Date(Date.now() + 1_800_000).toISOString() });
    }
    if (path === '/_api/audit-logs/retrieve-archived') {
      if (retrieval === 'broken') return Response.json({ error: 'Storage unavailable' }, { status: 503 });
      if (retrieval === 'done') return Response.json({ status: 'cached', details: ARCHIVED_DETAILS });
      retrieval = 'running';
      return Response.json({
        status: 'in-progress',
        message: ARCHIVAL_MSG.retrievalInProgress,
        startedAt: new Date().toISOString(),
        estimatedCompletionTime: new Date(Date.now() + 120_000).toISOString(),
      });
    }
    if (path === '/_api/audit-logs/check-retrievals') {
      if (completeOnCheck && retrieval === 'running') retrieval = 'done';
      const done = retrieval === 'done';
      return Response.json({ completed: done ? 1 : 0, logIds: done ? ['3'] : [], pending: done ? [] : ['3'], failed: [], failures: [] });
    }
    if (path === '/_api/audit-logs/export') {
      const init = vi.mocked(fetch).mock.calls.at(-1)![1];
      const token = (init?.headers as Record<string, string> | undefined)?.['x-mfa-token'];
      if (token !== VALID_CODE) {
        return Response.json(
          {
            error: 'MFA_REQUIRED',
            code: 'MFA_REQUIRED',
            mfaRequired: true,
            message: MSG.mfaRequired,
            details: { operation: 'EXPORT_AUDIT_LOGS', mfaMethod: 'totp' },
          },
          { status: 401 },
        );
      }
      return new Response('\uFEFFTimestamp,Actor\r\n', {
        headers: {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="strongroom_audit_logs_2026-11-26T09:00:00.000Z.csv"',
        },
      });
    }
    return Response.json({ error: 'not here' }, { status: 404 });
  });
  saved = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const u = `blob:strongroom/${blobs.size}`;
    blobs.set(u, blob as Blob);
    return u;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  resetMfaRequestsForTest();
  clearSystemMfaTokens();
});

function member(role: SessionUser['role'] = 'user'): SessionUser {
  return {
    id: 7,
    email: 'p1@acme.test',
    displayName: 'Person 1',
    profileId: '44444444-4444-4444-8444-444444444444',
    organizationId: '11111111-1111-4111-8111-111111111111',
    organizationName: 'Acme LLP',
    role,
    status: 'active',
    permissions: DEFAULT_PERMISSIONS[role],
    mfaSetupRequired: false,
    mfaEnabled: true,
    mfaPrimaryMethod: 'totp',
  } as SessionUser;
}

function renderPage(user = member()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  client.setQueryData(sessionQueryKey, { user, session: null, apiVersion: null });
  return renderWithClient(
    <>
      <AuditLogsPage />
      <MfaHost />
      <Toaster />
    </>,
    { client },
  );
}

const table = () => screen.getByRole('table', { name: 'Audit logs' });

describe('the Audit Logs page', { timeout: 20_000 }, () => {
  it('shows ten skeleton rows, then the entries: actor or System, action, target or N/A; asks for 50 newest first over the last 30 days', async () => {
    renderPage();
    expect(screen.getByRole('heading', { name: AUDIT_LOG_MSG.title })).toBeInTheDocument();
    expect(screen.getByText(AUDIT_LOG_MSG.subtitle)).toBeInTheDocument();
    expect(screen.getAllByTestId('audit-skeleton-row')).toHaveLength(10);
    await within(table()).findByText('Person 1');
    const rows = within(table()).getAllByTestId('audit-row');
    expect(rows[0]).toHaveTextContent('p1@acme.test');
    expect(rows[0]).toHaveTextContent('matters');
    expect(rows[0]).toHaveTextContent('m-1');
    expect(rows[1]).toHaveTextContent(AUDIT_LOG_MSG.system);
    expect(rows[1]).toHaveTextContent(AUDIT_LOG_MSG.notApplicable);
    const q = listCalls()[0]!;
    expect(q.get('page')).toBe('1');
    expect(q.get('limit')).toBe('50');
    expect(q.get('sortBy')).toBe('created_at');
    expect(q.get('sortDirection')).toBe('desc');
    const days = (Date.parse(q.get('endDate')!) - Date.parse(q.get('startDate')!)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    expect(new Date(q.get('endDate')!).toDateString()).toBe(new Date().toDateString());
    // A single page: no pager.
    expect(screen.queryByText(AUDIT_LOG_MSG.pageOf(1, 1))).not.toBeInTheDocument();
  });

  it('expands and hides the JSON details of an entry', async () => {
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    const view = within(within(table()).getAllByTestId('audit-row')[0]!).getByRole('button', { name: /^View details/ });
    await user.click(view);
    expect(within(table()).getByText(/"matterName": "Matter 1"/)).toBeInTheDocument();
    expect(view).toHaveAttribute('aria-expanded', 'true');
    expect(view).toHaveTextContent(AUDIT_LOG_MSG.hide);
    await user.click(view);
    expect(within(table()).queryByText(/"matterName": "Matter 1"/)).not.toBeInTheDocument();
  });

  it('sorts by a new column descending first, flips the active one to ascending, and keeps the page', async () => {
    totalPages = 3;
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listCalls().at(-1)!.get('page')).toBe('2'));
    const header = (name: string) => within(table()).getByRole('button', { name });
    const sortOf = (name: string) => header(name).closest('th')!.getAttribute('aria-sort');
    const last = () => listCalls().at(-1)!;
    expect(sortOf(AUDIT_LOG_MSG.columnTimestamp)).toBe('descending');
    await user.click(header(AUDIT_LOG_MSG.columnTimestamp));
    await waitFor(() => expect(last().get('sortDirection')).toBe('asc'));
    expect(last().get('sortBy')).toBe('created_at');
    expect(sortOf(AUDIT_LOG_MSG.columnTimestamp)).toBe('ascending');
    await user.click(header(AUDIT_LOG_MSG.columnTimestamp));
    expect(sortOf(AUDIT_LOG_MSG.columnTimestamp)).toBe('descending');
    await user.click(header(AUDIT_LOG_MSG.columnAction));
    await waitFor(() => expect(last().get('sortBy')).toBe('action'));
    expect(last().get('sortDirection')).toBe('desc');
    expect(sortOf(AUDIT_LOG_MSG.columnAction)).toBe('descending');
    expect(sortOf(AUDIT_LOG_MSG.columnTimestamp)).toBe('none');
    await user.click(header(AUDIT_LOG_MSG.columnAction));
    await waitFor(() => expect(last().get('sortDirection')).toBe('asc'));
    expect(sortOf(AUDIT_LOG_MSG.columnAction)).toBe('ascending');
    // Ascending on Action, a click on Timestamp: Timestamp descending.
    await user.click(header(AUDIT_LOG_MSG.columnTimestamp));
    expect(sortOf(AUDIT_LOG_MSG.columnTimestamp)).toBe('descending');
    expect(last().get('page')).toBe('2');
    expect(screen.getByText(AUDIT_LOG_MSG.pageOf(2, 3))).toBeInTheDocument();
  });

  it('searches 500 ms after typing stops, once', async () => {
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    await user.type(screen.getByRole('searchbox', { name: AUDIT_LOG_MSG.searchPlaceholder }), 'vale');
    await waitFor(() => expect(listCalls().at(-1)!.get('search')).toBe('vale'));
    expect(
      listCalls()
        .filter((q) => q.has('search'))
        .map((q) => q.get('search')),
    ).toEqual(['vale']);
  });

  it('filters by category (every action of it) and then by one action; Clear goes back to the last 30 days', async () => {
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    const action = screen.getByRole('combobox', { name: AUDIT_LOG_MSG.specificAction });
    expect(action).toBeDisabled();
    const category = screen.getByRole('combobox', { name: 'Action category' });
    expect(category).toHaveTextContent(AUDIT_LOG_MSG.allCategories);
    await user.click(category);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      AUDIT_LOG_MSG.allCategories,
      'Authentication',
      'User Management',
      'Matter Operations',
      'File Operations',
      'Vault Operations',
      'Settings Operations',
      'System Operations',
    ]);
    await user.click(screen.getByRole('option', { name: 'Vault Operations' }));
    await waitFor(() => expect(listCalls().at(-1)!.getAll('actions[]')).toEqual([...AUDIT_ACTION_CATEGORIES['Vault Operations']]));
    expect(action).toBeEnabled();
    await user.click(action);
    const options = await screen.findAllByRole('option');
    expect(options[0]).toHaveTextContent(AUDIT_LOG_MSG.allActionsInCategory);
    await user.click(screen.getByRole('option', { name: 'VAULT_TRANSFER_FAILED' }));
    await waitFor(() => expect(listCalls().at(-1)!.getAll('actions[]')).toEqual(['VAULT_TRANSFER_FAILED']));

    await user.click(screen.getByRole('button', { name: AUDIT_LOG_MSG.clear }));
    // Back to the first question asked: all categories over the last 30 days ending today.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Action category' })).toHaveTextContent(AUDIT_LOG_MSG.allCategories));
    expect(screen.getByRole('combobox', { name: AUDIT_LOG_MSG.specificAction })).toBeDisabled();
    expect(within(table()).getAllByTestId('audit-row')).toHaveLength(2);
  });

  it('shows two months in the date picker and asks for the range picked', async () => {
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    await user.click(screen.getByRole('button', { name: /^Date range:/ }));
    const months = await screen.findByTestId('date-range-months');
    expect(within(months).getAllByRole('group')).toHaveLength(2);
    const first = within(months).getAllByRole('group')[0]!;
    const days = within(first).getAllByRole('button');
    await user.click(days[2]!);
    await user.click(days[4]!);
    await waitFor(() => {
      const q = listCalls().at(-1)!;
      expect(Math.round((Date.parse(q.get('endDate')!) - Date.parse(q.get('startDate')!)) / 86_400_000)).toBe(3);
    });
  });

  it('pages only when there is more than one page', async () => {
    totalPages = 2;
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    expect(screen.getByText(AUDIT_LOG_MSG.pageOf(1, 2))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(AUDIT_LOG_MSG.pageOf(2, 2))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('reads a count that stopped at its bound as "at least", and pages on past it', async () => {
    capped = true;
    const { user } = renderPage();
    expect(await screen.findByText('Page 1 of 200+')).toBeInTheDocument();
    expect(screen.queryByText(AUDIT_LOG_MSG.pageOf(1, 200))).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 200+')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('says so when nothing matches', async () => {
    logs = [];
    renderPage();
    expect(await screen.findByText(AUDIT_LOG_MSG.empty)).toBeInTheDocument();
  });

  it('exports the CSV with the current filters after an MFA code, and saves the file the server named', async () => {
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    await user.type(screen.getByRole('searchbox', { name: AUDIT_LOG_MSG.searchPlaceholder }), 'vale');
    await waitFor(() => expect(listCalls().at(-1)!.get('search')).toBe('vale'));
    await user.click(screen.getByRole('button', { name: AUDIT_LOG_MSG.exportCsv }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.type(within(mfa).getByLabelText('Verification Code'), VALID_CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('strongroom_audit_logs_2026-11-26T09:00:00.000Z.csv');
    expect(await saved[0]!.blob.text()).toContain('Timestamp,Actor');
    const q = exportCalls().at(-1)!.url.searchParams;
    expect(q.get('search')).toBe('vale');
    expect(q.get('limit')).toBe('10000');
    expect(q.get('page')).toBe('1');
    expect(q.get('sortBy')).toBe('created_at');
  });

  it('toasts a failed export', async () => {
    const { user } = renderPage();
    await within(table()).findByText('Person 1');
    vi.mocked(fetch).mockImplementationOnce(async () => Response.json({ error: 'boom' }, { status: 500 }));
    await user.click(screen.getByRole('button', { name: AUDIT_LOG_MSG.exportCsv }));
    expect(await screen.findByText(AUDIT_LOG_MSG.exportFailed)).toBeInTheDocument();
  });

  it('opens on the entries for an administrator, with no dialog; Show statistics asks for the code, then shows them', async () => {
    const { user } = renderPage(member('admin'));
    await within(table()).findByText('Person 1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/_api/system/archival-stats')).toEqual([]);
    // The rest of the page works without the statistics.
    await user.click(within(table()).getAllByRole('button', { name: /^View details/ })[0]!);
    expect(within(table()).getByText(/"matterName": "Matter 1"/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: ARCHIVAL_MSG.showStats }));
    const prompt = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.type(within(prompt).getByLabelText('Verification Code'), VALID_CODE);
    await user.click(within(prompt).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('4,321')).toBeInTheDocument();
    expect(screen.getByText(ARCHIVAL_MSG.compliant)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ARCHIVAL_MSG.showStats })).not.toBeInTheDocument();
  });

  it('shows no archival panel to a user who is not an administrator', async () => {
    renderPage();
    await within(table()).findByText('Person 1');
    expect(screen.queryByRole('button', { name: ARCHIVAL_MSG.showStats })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: ARCHIVAL_MSG.panelTitle })).not.toBeInTheDocument();
  });

  it('reads each row as a sentence with names, the raw action code beside it', async () => {
    logs = [
      entry(1),
      entry(2, {
        action: 'USER_REMOVE',
        targetTable: 'users',
        targetId: 'u-2',
        details: { email: 'bob@acme.test' },
        names: { matter: null, target: 'Bob Baker' },
      }),
      entry(3, {
        action: 'UPLOAD_FILE',
        targetTable: 'nodes',
        details: { fileName: 'Defence.pdf' },
        names: { matter: 'Smith v Jones', target: 'Defence.pdf' },
      }),
    ];
    renderPage();
    await within(table()).findByText('Person 3');
    const sentences = within(table())
      .getAllByTestId('audit-sentence')
      .map((s) => s.textContent);
    expect(sentences).toEqual([
      'Person 1 created the matter “Matter 1”',
      'Person 2 deactivated Bob Baker',
      'Person 3 uploaded “Defence.pdf” to “Smith v Jones”',
    ]);
    const rows = within(table()).getAllByTestId('audit-row');
    expect(rows[1]).toHaveTextContent('USER_REMOVE');
    expect(rows[2]).toHaveTextContent('UPLOAD_FILE');
  });

  it('labels what a browser reported, in the row and in its details, with the action in words', async () => {
    logs = [entry(1), entry(4, { action: 'CLIENT_REPORTED_MFA_VERIFICATION_FAILED', details: { reason: 'wrong code' } })];
    const { user } = renderPage();
    await within(table()).findByText('Person 4');
    const [own, reported] = within(table()).getAllByTestId('audit-row');
    expect(own).not.toHaveTextContent(AUDIT_LOG_MSG.reportedByBrowser);
    expect(own).toHaveTextContent('CREATE_MATTER');
    expect(reported).toHaveTextContent(AUDIT_LOG_MSG.reportedByBrowser);
    expect(within(reported!).getByText('MFA verification failed')).toBeInTheDocument();
    expect(reported).not.toHaveTextContent('CLIENT_REPORTED_MFA_VERIFICATION_FAILED');
    await user.click(within(reported!).getByRole('button', { name: /^View details of MFA verification failed/ }));
    const details = document.getElementById('audit-details-4')!;
    expect(details).toHaveTextContent(AUDIT_LOG_MSG.reportedByBrowser);
    expect(details).toHaveTextContent('CLIENT_REPORTED_MFA_VERIFICATION_FAILED');
    expect(details).toHaveTextContent('"reason": "wrong code"');
  });

  describe('an archived entry', () => {
    beforeEach(() => {
      logs = [entry(1), entry(3, { archived: true, details: null, action: 'UPDATE_MATTER' })];
    });
    const archivedRow = () => within(table()).getAllByTestId('audit-row')[1]!;

    it('opens Archived Log Details, starts the retrieval, shows it running and carries on in the background', async () => {
      const { user } = renderPage();
      await within(table()).findByText('Person 3');
      expect(archivedRow()).toHaveTextContent(AUDIT_LOG_MSG.archived);
      await user.click(within(archivedRow()).getByRole('button', { name: /^Retrieve details/ }));
      const dialog = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.archivedDialogTitle });
      expect(dialog).toHaveTextContent(ARCHIVAL_MSG.logId('3'));
      expect(dialog).toHaveTextContent(ARCHIVAL_MSG.retrieveTitle);
      await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.startRetrieval }));
      expect(await within(dialog).findByText(ARCHIVAL_MSG.retrievingTitle)).toBeInTheDocument();
      expect(within(dialog).getByText(ARCHIVAL_MSG.inProgress)).toBeInTheDocument();
      expect(within(dialog).getByText(/^0:0\d$/)).toBeInTheDocument();
      expect(retrieveCalls()).toEqual([{ logId: '3', organizationId: member().organizationId }]);
      // The page checks at once, for the pending entry.
      await waitFor(() => expect(checkCalls()).toEqual([{ organizationId: member().organizationId, logIds: ['3'] }]));
      expect(screen.getByText(AUDIT_LOG_MSG.retrieving(1))).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.continueInBackground }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const button = within(archivedRow()).getByRole('button', { name: /^Retrieving\.\.\. details/ });
      expect(button).toBeDisabled();
    });

    it('hands over the details once the check finds them cached, with the notice and a toast', async () => {
      completeOnCheck = true;
      const { user } = renderPage();
      await within(table()).findByText('Person 3');
      await user.click(within(archivedRow()).getByRole('button', { name: /^Retrieve details/ }));
      const dialog = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.archivedDialogTitle });
      await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.startRetrieval }));
      expect(await screen.findByText(ARCHIVAL_MSG.singleCompleted)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.queryByText(AUDIT_LOG_MSG.retrieving(1))).not.toBeInTheDocument();
      await user.click(within(archivedRow()).getByRole('button', { name: /^View details/ }));
      expect(within(table()).getByText(ARCHIVAL_MSG.cachedNotice)).toBeInTheDocument();
      expect(within(table()).getByText(/"from": "cold storage"/)).toBeInTheDocument();
    });

    it('says the details were already there when they are cached', async () => {
      retrieval = 'done';
      const { user } = renderPage();
      await within(table()).findByText('Person 3');
      await user.click(within(archivedRow()).getByRole('button', { name: /^Retrieve details/ }));
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: ARCHIVAL_MSG.startRetrieval }));
      expect(await screen.findByText(ARCHIVAL_MSG.alreadyAvailable)).toBeInTheDocument();
      expect(within(archivedRow()).getByRole('button', { name: /^View details/ })).toBeInTheDocument();
    });

    it('shows Retrieval Failed with the reason and lets the reader try again', async () => {
      retrieval = 'broken';
      const { user } = renderPage();
      await within(table()).findByText('Person 3');
      await user.click(within(archivedRow()).getByRole('button', { name: /^Retrieve details/ }));
      const dialog = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.archivedDialogTitle });
      await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.startRetrieval }));
      expect(await within(dialog).findByText(ARCHIVAL_MSG.retrievalFailedTitle)).toBeInTheDocument();
      expect(dialog).toHaveTextContent(ARCHIVAL_MSG.retrieveFailedWith('Storage unavailable'));
      expect(await screen.findByText(ARCHIVAL_MSG.startFailed('Storage unavailable'))).toBeInTheDocument();
      retrieval = 'done';
      await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.tryAgain }));
      expect(await screen.findByText(ARCHIVAL_MSG.alreadyAvailable)).toBeInTheDocument();
    });
  });
});
