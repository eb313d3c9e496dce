import { useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight, Lock } from 'lucide-react';
import { describeAuditEntry, VAULT_LIMITS, VAULT_MSG, type NodeTreeDto, type VaultedMatterDto } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage, isApiError } from '@/lib/api-error';
import { formatBytes } from '@/lib/format-bytes';
import { useVaultAudit } from '../api/get-vault-audit';
import { useVaultDetail } from '../api/get-vault-detail';
import { formatDate, formatDateTime } from '../lib/vault-format';
import { ExportReportButton } from './export-report-button';
import { TransferBadge } from './vault-badges';

type VaultDetailSheetProps = {
  /** The matter shown; null closes the sheet. */
  matterId: string | null;
  onClose: () => void;
  /** The Files & Folders tab's content: the page composes the folder tree (a feature of its own). */
  renderFiles: (nodes: NodeTreeDto[]) => ReactNode;
};

/** A vaulted matter, read-only, in a sheet from the right: facts, files and folders, and its audit log. */
export function VaultDetailSheet({ matterId, onClose, renderFiles }: VaultDetailSheetProps) {
  return (
    <Sheet open={matterId !== null} onOpenChange={(o) => !o && onClose()}>
      <SheetContent side="right" className="w-[min(52rem,calc(100%-2rem))] overflow-y-auto">
        {matterId ? <SheetBody key={matterId} matterId={matterId} renderFiles={renderFiles} /> : null}
      </SheetContent>
    </Sheet>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="truncate text-sm">{children}</dd>
    </div>
  );
}

function SheetBody({ matterId, renderFiles }: { matterId: string; renderFiles: VaultDetailSheetProps['renderFiles'] }) {
  const detail = useVaultDetail(matterId);
  const [tab, setTab] = useState('files');

  if (detail.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true" aria-label="Loading vaulted matter">
        <SheetTitle className="sr-only">Loading vaulted matter</SheetTitle>
        <Skeleton className="h-6 w-64" />
        <Skeleton className="h-4 w-40" />
        <Skeleton className="mt-2 h-24 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (detail.isError) {
    const missing = isApiError(detail.error) && detail.error.status === 404;
    return (
      <>
        <SheetTitle className="sr-only">Vaulted matter</SheetTitle>
        <ErrorState
          title={missing ? VAULT_MSG.detailEmpty : VAULT_MSG.detailFailed}
          message={errorMessage(detail.error, VAULT_MSG.fetchDetailFailed)}
          onRetry={missing ? undefined : () => void detail.refetch()}
          retrying={detail.isFetching}
        />
      </>
    );
  }
  const { matter, nodes } = detail.data;
  return (
    <div className="grid gap-5">
      <SheetHeader className="gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <SheetTitle className="text-lg">{matter.matterName}</SheetTitle>
          {matter.legalHold ? (
            <Badge tone="danger">
              <Lock aria-hidden="true" />
              Under Legal Hold
            </Badge>
          ) : null}
        </div>
        <SheetDescription>Client: {matter.clientName ?? 'N/A'}</SheetDescription>
      </SheetHeader>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3">
        <Fact label="Vaulted On">{formatDateTime(matter.vaultedAt)}</Fact>
        <Fact label="Retention Expires">{matter.retentionExpiresAt ? formatDate(matter.retentionExpiresAt) : 'Permanent'}</Fact>
        <Fact label="Status">{matter.isVaulted ? 'Vaulted' : 'Open'}</Fact>
        <Fact label="Matter Number">{matter.matterNumber ?? 'N/A'}</Fact>
        <Fact label="Transfer">
          <TransferBadge state={matter.transferState} />
        </Fact>
        <Fact label="Files">
          {matter.fileCount} {matter.fileCount === 1 ? 'file' : 'files'}, {formatBytes(matter.totalBytes)}
        </Fact>
      </dl>
      <div>
        <ExportReportButton matter={matter} size="sm" />
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="files">Files &amp; Folders</TabsTrigger>
          <TabsTrigger value="audit">Audit Log</TabsTrigger>
        </TabsList>
        <TabsContent value="files">
          {nodes.length === 0 ? (
            <EmptyState title="No files" description="This matter was vaulted without files." titleAs="h3" />
          ) : (
            renderFiles(nodes)
          )}
        </TabsContent>
        <TabsContent value="audit">
          <AuditLog matterId={matter.id} matterName={matter.matterName} enabled={tab === 'audit'} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** The matter's audit entries, 50 to a page, newest first. */
function AuditLog({ matterId, matterName, enabled }: { matterId: VaultedMatterDto['id']; matterName: string; enabled: boolean }) {
  const [page, setPage] = useState(1);
  const audit = useVaultAudit(matterId, page, enabled);
  if (audit.isPending) {
    return (
      <div className="grid gap-2" aria-busy="true" aria-label="Loading audit log">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  }
  if (audit.isError) {
    return (
      <ErrorState
        title={VAULT_MSG.fetchAuditFailed}
        message={errorMessage(audit.error)}
        onRetry={() => void audit.refetch()}
        retrying={audit.isFetching}
        titleAs="h3"
      />
    );
  }
  const { logs, totalCount } = audit.data;
  const pages = Math.max(1, Math.ceil(totalCount / VAULT_LIMITS.auditPageSizeDefault));
  if (logs.length === 0) return <EmptyState title="No audit entries" titleAs="h3" />;
  return (
    <div className="grid gap-3">
      <ol aria-label="Audit log" className="grid divide-y divide-border rounded-lg border border-border">
        {logs.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2.5 text-sm">
            {/* The entry in words, as the Audit Logs page says it, with its raw action code beside it. */}
            <span className="min-w-0 flex-1">
              {describeAuditEntry({ ...entry, actor: { name: entry.actorName, email: entry.actorEmail }, names: { matter: matterName } })}
            </span>
            <span className="font-mono text-[11px] text-muted-foreground">{entry.action}</span>
            <time dateTime={entry.timestamp} className="w-full text-xs text-muted-foreground tabular-nums">
              {formatDateTime(entry.timestamp)}
            </time>
          </li>
        ))}
      </ol>
      <nav aria-label="Audit log pages" className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
        <span className="tabular-nums">
          Page {page} of {pages} ({totalCount} {totalCount === 1 ? 'entry' : 'entries'})
        </span>
        <span className="flex gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </span>
      </nav>
    </div>
  );
}
