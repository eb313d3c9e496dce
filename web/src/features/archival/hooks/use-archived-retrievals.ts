import { useCallback, useEffect, useState } from 'react';
import { ARCHIVAL_LIMITS, ARCHIVAL_MSG, type AuditLogEntry } from '@strongroom/contracts';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { checkRetrievals } from '../api/check-retrievals';
import { retrieveArchived } from '../api/retrieve-archived';

type RetrievalView =
  | { kind: 'initial'; starting: boolean }
  | { kind: 'in-progress'; startedAt: number; estimatedCompletionTime: string | null }
  | { kind: 'failed'; message: string };

export type RetrievalDialogState = { log: AuditLogEntry; view: RetrievalView } | null;

type Pending = { startedAt: number; estimatedCompletionTime: string | null };

/**
 * Retrieval of archived entries' details. Retrieve opens the dialog; a start answers cached (the details are
 * handed over and the dialog closes), in progress (the dialog shows the elapsed time and the page polls), or
 * failed. While any retrieval is pending the page checks right away and then every 60 s until all finished.
 */
export function useArchivedRetrievals(organizationId: string | null) {
  const [cached, setCached] = useState<Readonly<Record<string, Record<string, unknown>>>>({});
  const [pending, setPending] = useState<ReadonlyMap<string, Pending>>(new Map());
  const [dialog, setDialog] = useState<RetrievalDialogState>(null);

  const open = useCallback(
    (log: AuditLogEntry) => {
      const p = pending.get(log.id);
      setDialog({ log, view: p ? { kind: 'in-progress', ...p } : { kind: 'initial', starting: false } });
    },
    [pending],
  );
  const close = useCallback(() => setDialog(null), []);

  const start = useCallback(async () => {
    const current = dialog;
    if (!current || !organizationId) return;
    const { log } = current;
    setDialog({ log, view: { kind: 'initial', starting: true } });
    try {
      const answer = await retrieveArchived(log.id, organizationId);
      if (answer.status === 'cached') {
        setCached((c) => ({ ...c, [log.id]: answer.details ?? {} }));
        toast.success(ARCHIVAL_MSG.alreadyAvailable);
        setDialog((d) => (d?.log.id === log.id ? null : d));
      } else if (answer.status === 'in-progress') {
        const entry: Pending = {
          startedAt: answer.startedAt ? Date.parse(answer.startedAt) : Date.now(),
          estimatedCompletionTime: answer.estimatedCompletionTime ?? null,
        };
        setPending((p) => new Map(p).set(log.id, entry));
        toast.info(answer.message ?? ARCHIVAL_MSG.retrievalInProgress);
        setDialog((d) => (d?.log.id === log.id ? { log, view: { kind: 'in-progress', ...entry } } : d));
      } else {
        setDialog((d) =>
          d?.log.id === log.id ? { log, view: { kind: 'failed', message: answer.message ?? ARCHIVAL_MSG.retrieveFailed } } : d,
        );
      }
    } catch (error) {
      const message = errorMessage(error, ARCHIVAL_MSG.unknownError);
      toast.error(ARCHIVAL_MSG.startFailed(message));
      setDialog((d) => (d?.log.id === log.id ? { log, view: { kind: 'failed', message: ARCHIVAL_MSG.retrieveFailedWith(message) } } : d));
    }
  }, [dialog, organizationId]);

  // Polls while retrievals are pending: once right away, then every 60 s.
  const pendingIds = [...pending.keys()].sort().join(',');
  useEffect(() => {
    if (!pendingIds || !organizationId) return;
    const ids = pendingIds.split(',');
    let stopped = false;
    const check = async () => {
      try {
        const answer = await checkRetrievals(organizationId, ids);
        if (stopped) return;
        const done = answer.logIds.filter((id) => ids.includes(id));
        const details = await Promise.all(
          done.map(async (id) => {
            const r = await retrieveArchived(id, organizationId);
            return [id, r.status === 'cached' ? (r.details ?? {}) : null] as const;
          }),
        );
        if (stopped) return;
        const fetched = details.filter((d): d is readonly [string, Record<string, unknown>] => d[1] !== null);
        const failures = new Map<string, string>();
        // Why each failed, where the server says so.
        for (const f of answer.failures) failures.set(f.logId, f.message);
        for (const id of answer.failed) if (!failures.has(id)) failures.set(id, ARCHIVAL_MSG.retrieveFailed);
        const finished = new Set([...fetched.map(([id]) => id), ...[...failures.keys()].filter((id) => ids.includes(id))]);
        if (finished.size === 0) return;
        if (fetched.length > 0) setCached((c) => ({ ...c, ...Object.fromEntries(fetched) }));
        setPending((p) => {
          const next = new Map(p);
          for (const id of finished) next.delete(id);
          return next;
        });
        setDialog((d) => {
          if (!d || !finished.has(d.log.id)) return d;
          const failure = failures.get(d.log.id);
          return failure ? { log: d.log, view: { kind: 'failed', message: failure } } : null;
        });
        if (fetched.length > 0) {
          if (finished.size === ids.length) {
            toast.success(ids.length === 1 ? ARCHIVAL_MSG.singleCompleted : ARCHIVAL_MSG.allCompleted(fetched.length));
          } else {
            toast.success(ARCHIVAL_MSG.someCompleted(fetched.length));
          }
        }
        for (const [id, message] of failures) if (ids.includes(id)) toast.error(ARCHIVAL_MSG.retrieveFailedWith(message));
      } catch (error) {
        if (!stopped) toast.error(ARCHIVAL_MSG.checkFailed(errorMessage(error, ARCHIVAL_MSG.unknownError)));
      }
    };
    void check();
    const timer = setInterval(() => void check(), ARCHIVAL_LIMITS.pollMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pendingIds, organizationId]);

  return { cached, pendingIds: new Set(pending.keys()) as ReadonlySet<string>, pendingCount: pending.size, dialog, open, close, start };
}
