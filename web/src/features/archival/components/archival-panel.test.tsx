import { configure, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARCHIVAL_MSG, MSG } from '@strongroom/contracts';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { clearSystemMfaTokens, storeSystemMfaToken } from '@/lib/system-mfa';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { ArchivalPanel } from './archival-panel';

configure({ asyncUtilTimeout: 5_000 });

const VALID_CODE = '246810';
const SYSTEM_TOKEN = 'c'.repeat(64);
/** A token of the organization class (a real archival); the statistics' token serves only the dry run. */
const ORG_TOKEN = 'd'.repeat(64);
const mfaRequired = (operation: string) =>
  Response.json(
    { error: 'MFA_REQUIRED', code: 'MFA_REQUIRED', mfaRequired: true, message: MSG.mfaRequired, details: { operation, mfaMethod: 'totp' } },
    { status: 401 },
  );

let calls: FetchCall[];
let archivable: number;
let archiveAnswer: (dryRun: boolean) => Response;
/** A business refusal comes before any MFA demand. */
let refusal: Response | null;
const archives = () => calls.filter((c) => c.path === '/_api/system/archive-audit-logs').map((c) => c.body);
const headerOf = (i: number) => {
  const init = (globalThis.fetch as unknown as { mock: { calls: [unknown, RequestInit | undefined][] } }).mock.calls[i]![1];
  return (init?.headers as Record<string, string> | undefined)?.['x-mfa-token'];
};

let statsBroken: boolean;
/** The runs GET /_api/system/archival-runs/latest answers, one per read (the last one again once they run out). */
let runReads: Array<Record<string, unknown> | null>;
const run = (over: Record<string, unknown>) => ({
  runId: 'run-1',
  state: 'running',
  requestedAt: '2026-11-27T10:00:00.000Z',
  cutoff: '2026-05-31T10:00:00.000Z',
  entriesTotal: 12,
  entriesDone: 0,
  batches: 0,
  bytes: 0,
  startedAt: '2026-11-27T10:00:01.000Z',
  finishedAt: null,
  message: null,
  ...over,
});
beforeEach(() => {
  statsBroken = false;
  runReads = [
    run({ entriesDone: 5, batches: 1 }),
    run({ state: 'completed', entriesDone: 12, batches: 2, finishedAt: '2026-11-27T10:00:09.000Z' }),
  ];
  archivable = 12;
  refusal = null;
  // A real archival answers at once with its queued run; the run's progress is read from the latest run.
  archiveAnswer = (dryRun) =>
    Response.json(
      dryRun
        ? {
            archivedCount: archivable,
            dryRun,
            batches: 0,
            range: { before: '2026-05-30T00:00:00.000Z', oldest: '2025-01-02T10:00:00.000Z', newest: '2026-04-01T10:00:00.000Z' },
          }
        : { archivedCount: 0, dryRun, batches: 0, runId: 'run-1', state: 'queued', entriesTotal: archivable },
    );
  calls = stubFetch(({ path, body }) => {
    const i = calls.length - 1;
    if (path === '/_api/system/archival-stats') {
      if (statsBroken && headerOf(i) === SYSTEM_TOKEN)
        return new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
      if (headerOf(i) !== SYSTEM_TOKEN) return mfaRequired('VIEW_ARCHIVAL_STATS');
      return Response.json({
        totalAuditLogs: 1500,
        archivableLogsCount: archivable,
        lastArchivalDate: null,
        retentionStatus: archivable > 0 ? 'Archival Overdue' : 'Compliant',
        archivedLogsCount: 0,
      });
    }
    if (path === '/_api/system/archival-runs/latest') {
      // As the server: the progress is of the archival's class.
      if (headerOf(i) !== ORG_TOKEN) return mfaRequired('MFA_SYSTEM_OPERATIONS');
      return Response.json({ run: runReads.length > 1 ? runReads.shift() : runReads[0] });
    }
    if (path === '/_api/auth/verifySystemMfa') {
      const { operation, mfaToken } = body as { operation: string; mfaToken: string };
      const token = { VIEW_ARCHIVAL_STATS: SYSTEM_TOKEN, MFA_SYSTEM_OPERATIONS: ORG_TOKEN }[operation];
      if (!token || mfaToken !== VALID_CODE) return Response.json({ error: MSG.invalidCode }, { status: 400 });
      return Response.json({ success: true, systemMfaToken: token, expiresAt: new Date(Date.now() + 1_800_000).toISOString() });
    }
    if (path === '/_api/system/archive-audit-logs') {
      if (refusal) return refusal;
      // As the server: a dry run is of the statistics' class, a real archival of the organization class.
      const { dryRun } = body as { dryRun: boolean };
      if (headerOf(i) !== (dryRun ? SYSTEM_TOKEN : ORG_TOKEN)) return mfaRequired(dryRun ? 'VIEW_ARCHIVAL_STATS' : 'MFA_SYSTEM_OPERATIONS');
      return archiveAnswer(dryRun);
    }
    return Response.json({ error: 'not here' }, { status: 404 });
  });
});
afterEach(() => {
  resetMfaRequestsForTest();
  clearSystemMfaTokens();
});
const SYSTEM_PROMPT = 'Confirm it’s you';

function render() {
  return renderWithClient(
    <>
      <ArchivalPanel auditLogsKey={['audit-logs']} />
      <MfaHost />
      <Toaster />
    </>,
  );
}

/** Presses 'Show statistics' and answers the system MFA prompt it raises. */
async function showStats(user: ReturnType<typeof render>['user']) {
  await user.click(await screen.findByRole('button', { name: ARCHIVAL_MSG.showStats }));
  await enterCode(user, SYSTEM_PROMPT);
}

/** The system MFA prompt (stats: one code buys a 30-minute token) or the per-action prompt (archival). */
async function enterCode(user: ReturnType<typeof render>['user'], name = 'Verification required') {
  const mfa = await screen.findByRole('dialog', { name });
  const input = within(mfa).getByLabelText('Verification Code');
  await user.clear(input);
  await user.type(input, VALID_CODE);
  await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name })).not.toBeInTheDocument());
}

describe('the archival panel', { timeout: 20_000 }, () => {
  it('opens on a Show statistics button: no prompt and no stats call until it is pressed', async () => {
    const { user } = render();
    expect(await screen.findByRole('button', { name: ARCHIVAL_MSG.showStats })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/_api/system/archival-stats')).toEqual([]);
    // Archiving does not wait for the statistics.
    expect(screen.getByRole('button', { name: ARCHIVAL_MSG.archiveButton })).toBeEnabled();
    // Closing the prompt leaves the button, and nothing was read.
    await user.click(screen.getByRole('button', { name: ARCHIVAL_MSG.showStats }));
    const prompt = await screen.findByRole('dialog', { name: SYSTEM_PROMPT });
    await user.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: ARCHIVAL_MSG.showStats })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/_api/system/archival-stats')).toEqual([]);
  });

  it('shows the statistics at once while a code verified earlier still holds', async () => {
    storeSystemMfaToken('VIEW_ARCHIVAL_STATS', SYSTEM_TOKEN);
    render();
    expect(await screen.findByText('1,500')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ARCHIVAL_MSG.showStats })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a refused earlier code brings back the button, without a prompt', async () => {
    storeSystemMfaToken('VIEW_ARCHIVAL_STATS', 'f'.repeat(64));
    render();
    expect(await screen.findByRole('button', { name: ARCHIVAL_MSG.showStats })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('names the HTTP status when the stats call fails without a JSON error', async () => {
    statsBroken = true;
    const { user } = render();
    await showStats(user);
    expect(await screen.findByText(ARCHIVAL_MSG.httpError(502))).toBeInTheDocument();
    expect(screen.getByText(ARCHIVAL_MSG.statsFailed)).toBeInTheDocument();
  });

  it('asks for an MFA code on Show statistics, then shows the totals, Never and Archival Overdue', async () => {
    const { user } = render();
    await showStats(user);
    expect(await screen.findByText('1,500')).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
    expect(screen.getByText(ARCHIVAL_MSG.never)).toBeInTheDocument();
    expect(screen.getByText(ARCHIVAL_MSG.overdue)).toBeInTheDocument();
  });

  it('says Compliant when nothing is old enough', async () => {
    archivable = 0;
    const { user } = render();
    await showStats(user);
    expect(await screen.findByText(ARCHIVAL_MSG.compliant)).toBeInTheDocument();
  });

  it('runs a dry run by default, straight away, on the code the statistics took, and shows its result', async () => {
    const { user } = render();
    await showStats(user);
    await user.click(await screen.findByRole('button', { name: ARCHIVAL_MSG.archiveButton }));
    const dialog = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.dialogTitle });
    expect(dialog).toHaveTextContent('180 days');
    expect(dialog).toHaveTextContent('1-5 minutes');
    expect(within(dialog).getByRole('checkbox', { name: ARCHIVAL_MSG.dryRunLabel })).toBeChecked();
    expect(within(dialog).queryByText(ARCHIVAL_MSG.dryRunWarning)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.runDryRun }));
    // No second prompt: the statistics' code serves the dry run (same class) for its 30 minutes.
    expect(await screen.findByText(ARCHIVAL_MSG.dryRunDone(12))).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: SYSTEM_PROMPT })).not.toBeInTheDocument();
    const result = within(dialog).getByTestId('dry-run-result');
    expect(result).toHaveTextContent(ARCHIVAL_MSG.wouldArchive(12));
    expect(result).toHaveTextContent(/Written between .*2025.* and .*2026/);
    expect(archives()).toEqual([{ dryRun: true }]);
  });

  it('says so when a dry run finds nothing to archive', async () => {
    archivable = 0;
    archiveAnswer = (dryRun) =>
      Response.json({ archivedCount: 0, dryRun, batches: 0, range: { before: '2026-05-30T00:00:00.000Z', oldest: null, newest: null } });
    const { user } = render();
    await showStats(user);
    await user.click(await screen.findByRole('button', { name: ARCHIVAL_MSG.archiveButton }));
    const dialog = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.dialogTitle });
    await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.runDryRun }));
    const result = await within(dialog).findByTestId('dry-run-result');
    expect(result).toHaveTextContent('0 entries would be archived');
    expect(result).toHaveTextContent(/No entry written before .*2026.* is left to archive\./);
  });

  it('warns when the dry run is unchecked and archives only after Confirm archival', async () => {
    const { user } = render();
    await showStats(user);
    await user.click(await screen.findByRole('button', { name: ARCHIVAL_MSG.archiveButton }));
    const dialog = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.dialogTitle });
    await user.click(within(dialog).getByRole('checkbox', { name: ARCHIVAL_MSG.dryRunLabel }));
    expect(within(dialog).getByText(ARCHIVAL_MSG.dryRunWarning)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.archive }));
    const confirm = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.confirmTitle });
    expect(archives()).toEqual([]);
    // Cancel goes back to the first dialog, nothing archived.
    await user.click(within(confirm).getByRole('button', { name: ARCHIVAL_MSG.cancel }));
    const again = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.dialogTitle });
    await user.click(within(again).getByRole('button', { name: ARCHIVAL_MSG.archive }));
    await user.click(
      within(await screen.findByRole('dialog', { name: ARCHIVAL_MSG.confirmTitle })).getByRole('button', {
        name: ARCHIVAL_MSG.confirmButton,
      }),
    );
    // A real archival is another class: it asks for a code of its own.
    await enterCode(user, SYSTEM_PROMPT);
    // It runs in the background: both dialogs close at once and the panel shows its progress, then its result.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(archives().at(-1)).toEqual({ dryRun: false });
    const progress = await screen.findByTestId('archival-progress');
    expect(within(progress).getByRole('progressbar', { name: ARCHIVAL_MSG.archivalProgressLabel })).toHaveAttribute('aria-valuenow', '42');
    expect(progress).toHaveTextContent(ARCHIVAL_MSG.archivalProgress(5, 12));
    expect(await screen.findByTestId('archival-result')).toHaveTextContent(ARCHIVAL_MSG.archivalDone(12));
    expect(screen.queryByTestId('archival-progress')).not.toBeInTheDocument();
    expect(await screen.findAllByText(ARCHIVAL_MSG.archivalDone(12))).toHaveLength(2);
  });

  it('toasts an archival whose run failed in the background', async () => {
    runReads = [run({ state: 'failed', entriesDone: 5, batches: 1, message: ARCHIVAL_MSG.archivalRunFailed })];
    const { user } = render();
    await user.click(screen.getByRole('button', { name: ARCHIVAL_MSG.archiveButton }));
    const dialog = await screen.findByRole('dialog', { name: ARCHIVAL_MSG.dialogTitle });
    await user.click(within(dialog).getByRole('checkbox', { name: ARCHIVAL_MSG.dryRunLabel }));
    await user.click(within(dialog).getByRole('button', { name: ARCHIVAL_MSG.archive }));
    await user.click(
      within(await screen.findByRole('dialog', { name: ARCHIVAL_MSG.confirmTitle })).getByRole('button', {
        name: ARCHIVAL_MSG.confirmButton,
      }),
    );
    await enterCode(user, SYSTEM_PROMPT);
    expect(await screen.findByRole('alert')).toHaveTextContent(ARCHIVAL_MSG.archivalFailed(ARCHIVAL_MSG.archivalRunFailed));
    expect(await screen.findAllByText(ARCHIVAL_MSG.archivalFailed(ARCHIVAL_MSG.archivalRunFailed))).toHaveLength(2);
  });

  it('toasts a failed archival that came without a JSON error with its HTTP status', async () => {
    refusal = new Response('Service Unavailable', { status: 503 });
    const { user } = render();
    await user.click(screen.getByRole('button', { name: ARCHIVAL_MSG.archiveButton }));
    await user.click(
      within(await screen.findByRole('dialog', { name: ARCHIVAL_MSG.dialogTitle })).getByRole('button', { name: ARCHIVAL_MSG.runDryRun }),
    );
    // Without a kept token the dry run asks for the statistics' code first.
    await enterCode(user, SYSTEM_PROMPT);
    expect(await screen.findByText(ARCHIVAL_MSG.archivalFailed(ARCHIVAL_MSG.httpError(503)))).toBeInTheDocument();
  });

  it('toasts a failed archival with the server text', async () => {
    refusal = Response.json({ error: ARCHIVAL_MSG.archivalBusy }, { status: 409 });
    const { user } = render();
    await showStats(user);
    await user.click(await screen.findByRole('button', { name: ARCHIVAL_MSG.archiveButton }));
    await user.click(
      within(await screen.findByRole('dialog', { name: ARCHIVAL_MSG.dialogTitle })).getByRole('button', { name: ARCHIVAL_MSG.runDryRun }),
    );
    expect(await screen.findByText(ARCHIVAL_MSG.archivalFailed(ARCHIVAL_MSG.archivalBusy))).toBeInTheDocument();
  });
});
