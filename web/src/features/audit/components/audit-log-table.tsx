import { Fragment, useEffect, useRef, useState } from 'react';
import { ARCHIVAL_MSG, AUDIT_LOG_LIMITS, AUDIT_LOG_MSG, describeAuditEntry, type AuditLogEntry } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { SortableTableHead, Table, TableBody, TableCell, TableHeader, TableRow } from '@/components/ui/table';
import { actionLabel, isClientReported } from '../lib/action-label';
import { formatTimestamp, type AuditPageSortField, type AuditSort } from '../lib/audit-filters';

type AuditLogTableProps = {
  logs: AuditLogEntry[];
  /** Nothing to show yet: ten skeleton rows. */
  loading: boolean;
  sort: AuditSort;
  onSort: (field: AuditPageSortField) => void;
  /** Details of archived entries read back from cold storage, by log id. */
  cachedDetails?: Readonly<Record<string, Record<string, unknown>>>;
  /** Archived entries whose retrieval is running. */
  pendingIds?: ReadonlySet<string>;
  onRetrieve?: (log: AuditLogEntry) => void;
  /** The entry a notification linked to: marked, and scrolled into view once it is on the page. */
  highlightId?: string | null;
};

const COLUMNS: { label: string; sort?: AuditPageSortField }[] = [
  { label: AUDIT_LOG_MSG.columnTimestamp, sort: 'created_at' },
  { label: AUDIT_LOG_MSG.columnActor },
  { label: AUDIT_LOG_MSG.columnAction, sort: 'action' },
  { label: AUDIT_LOG_MSG.columnTarget },
  { label: AUDIT_LOG_MSG.columnDetails },
];

function actionTone(action: string) {
  if (/FAILED|DENIED|LOCKED|SUSPICIOUS|DELETE|REMOVE/.test(action)) return 'danger' as const;
  if (/VAULT|HOLD|ARCHIVED/.test(action)) return 'primary' as const;
  return 'neutral' as const;
}

/** The highlighted entry's row, scrolled into view once it is on the page. */
function useHighlightedRow(logs: AuditLogEntry[], highlightId: string | null) {
  const row = useRef<HTMLTableRowElement>(null);
  const shown = logs.some((l) => l.id === highlightId);
  useEffect(() => {
    if (shown) row.current?.scrollIntoView({ block: 'center' });
  }, [shown]);
  return row;
}

export function AuditLogTable(props: AuditLogTableProps) {
  const { logs, loading, sort, onSort, cachedDetails = {}, pendingIds = new Set(), onRetrieve, highlightId = null } = props;
  const highlighted = useHighlightedRow(logs, highlightId);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Table aria-label="Audit logs" aria-busy={loading || undefined}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((c) => (
            <SortableTableHead
              key={c.label}
              label={c.label}
              active={c.sort !== undefined && c.sort === sort.sortBy}
              direction={sort.sortDirection}
              onSort={c.sort ? () => onSort(c.sort!) : undefined}
            />
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {loading
          ? Array.from({ length: AUDIT_LOG_LIMITS.skeletonRows }, (_, i) => (
              <TableRow key={i} data-testid="audit-skeleton-row" className="hover:bg-transparent">
                {COLUMNS.map((c) => (
                  <TableCell key={c.label}>
                    <Skeleton className="h-4 w-full max-w-40" />
                  </TableCell>
                ))}
              </TableRow>
            ))
          : logs.map((log) => {
              const cached = log.archived ? cachedDetails[log.id] : undefined;
              const details = log.archived ? cached : (log.details ?? {});
              const pending = pendingIds.has(log.id);
              const expanded = open.has(log.id) && details !== undefined;
              const detailsId = `audit-details-${log.id}`;
              const reported = isClientReported(log.action);
              const label = actionLabel(log.action);
              return (
                <Fragment key={log.id}>
                  <TableRow
                    data-testid="audit-row"
                    data-log-id={log.id}
                    ref={log.id === highlightId ? highlighted : undefined}
                    aria-current={log.id === highlightId ? 'true' : undefined}
                    className={log.id === highlightId ? 'bg-primary/10 hover:bg-primary/15' : undefined}
                  >
                    <TableCell className="whitespace-nowrap">
                      <time dateTime={log.timestamp}>{formatTimestamp(log.timestamp)}</time>
                    </TableCell>
                    <TableCell>
                      <div className="grid gap-0.5">
                        <span className="font-medium">{log.actor?.name ?? AUDIT_LOG_MSG.system}</span>
                        {log.actor?.email ? <span className="text-xs text-muted-foreground">{log.actor.email}</span> : null}
                      </div>
                    </TableCell>
                    <TableCell data-action={log.action} className="min-w-56">
                      {/* The entry in words; the raw action code stays beside it, as the export keeps it. */}
                      <p className="mb-1 text-sm" data-testid="audit-sentence">
                        {describeAuditEntry({ ...log, details: details ?? null })}
                      </p>
                      <div className="flex flex-wrap items-center gap-1">
                        {reported ? (
                          <>
                            <Badge tone={actionTone(log.action)} title={log.action}>
                              {label}
                            </Badge>
                            <ReportedBadge />
                          </>
                        ) : (
                          <Badge tone={actionTone(log.action)} className="font-mono text-[11px]">
                            {log.action}
                          </Badge>
                        )}
                        {log.archived ? <Badge tone="outline">{AUDIT_LOG_MSG.archived}</Badge> : null}
                      </div>
                    </TableCell>
                    <TableCell>
                      {log.targetTable ? (
                        <div className="grid gap-0.5">
                          <span>{log.targetTable}</span>
                          {log.targetId ? <span className="font-mono text-xs break-all text-muted-foreground">{log.targetId}</span> : null}
                        </div>
                      ) : (
                        <span className="text-muted-foreground">{AUDIT_LOG_MSG.notApplicable}</span>
                      )}
                    </TableCell>
                    <TableCell>
                      {details !== undefined ? (
                        <Button
                          variant="outline"
                          size="sm"
                          aria-expanded={expanded}
                          aria-controls={expanded ? detailsId : undefined}
                          aria-label={`${expanded ? AUDIT_LOG_MSG.hide : AUDIT_LOG_MSG.view} details of ${label} at ${formatTimestamp(log.timestamp)}`}
                          onClick={() => toggle(log.id)}
                        >
                          {expanded ? AUDIT_LOG_MSG.hide : AUDIT_LOG_MSG.view}
                        </Button>
                      ) : (
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={pending || !onRetrieve}
                          aria-label={`${pending ? ARCHIVAL_MSG.retrievingButton : AUDIT_LOG_MSG.retrieve} details of ${label} at ${formatTimestamp(log.timestamp)}`}
                          onClick={() => onRetrieve?.(log)}
                        >
                          {pending ? ARCHIVAL_MSG.retrievingButton : AUDIT_LOG_MSG.retrieve}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                  {expanded ? (
                    <TableRow className="hover:bg-transparent">
                      <TableCell colSpan={COLUMNS.length} id={detailsId}>
                        {log.archived ? <p className="mb-2 text-sm text-muted-foreground">{ARCHIVAL_MSG.cachedNotice}</p> : null}
                        {reported ? (
                          <p className="mb-2 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                            <ReportedBadge />
                            <span className="font-mono text-xs break-all">{log.action}</span>
                          </p>
                        ) : null}
                        <pre className="max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap text-foreground">
                          {JSON.stringify(details, null, 2)}
                        </pre>
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              );
            })}
      </TableBody>
    </Table>
  );
}

/** Marks an entry whose content a browser reported: what it says was claimed by a client, not seen by the server. */
function ReportedBadge() {
  return (
    <Badge tone="warning" className="whitespace-nowrap">
      {AUDIT_LOG_MSG.reportedByBrowser}
    </Badge>
  );
}
