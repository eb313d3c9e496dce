/**
 * The matter's recycle bin: what was deleted, from where, by whom and when, and the day it is deleted for good.
 * Restore is offered to whoever may delete (and only while the matter may be changed); the server decides again.
 */
import { useState } from 'react';
import { File, Folder, RotateCcw, Trash2 } from 'lucide-react';
import { NODE_MSG, type BinItemDto } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { formatBytes } from '@/lib/format-bytes';
import { toast } from '@/lib/toast';
import { useBinDays, useRecycleBin, useRestoreFromBin } from '../api/recycle-bin';

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const formatDateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

type RecycleBinProps = { matterId: string; canRestore: boolean };

function BinRow({ item, canRestore, matterId }: { item: BinItemDto; canRestore: boolean; matterId: string }) {
  const restore = useRestoreFromBin(matterId);
  const Icon = item.nodeType === 'folder' ? Folder : File;
  // Told through the promise, not mutate's callbacks: the row is gone from the refreshed list by then.
  const onRestore = () =>
    restore.mutateAsync({ binEntryId: item.binEntryId }).then(
      () => toast.success(NODE_MSG.restored(`"${item.name}"`)),
      (err: unknown) => {
        if (!isMfaCancelledError(err)) toast.error(NODE_MSG.restoreFailed, { description: errorMessage(err) });
      },
    );
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4" aria-label={`${item.name} in the recycle bin`}>
      <div className="flex min-w-0 flex-1 items-start gap-2.5">
        <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <div className="min-w-0">
          <p className="truncate font-medium">{item.name}</p>
          <p className="truncate text-sm text-muted-foreground">
            From {item.originalPath === '/' ? 'Root' : item.originalPath}
            {item.nodeType === 'folder' ? ` · ${item.fileCount} ${item.fileCount === 1 ? 'file' : 'files'}` : ''} ·{' '}
            {formatBytes(item.totalBytes)}
          </p>
          <p className="text-sm text-muted-foreground">
            Deleted by {item.deletedByName ?? 'a former user'} on {formatDateTime(item.deletedAt)}
          </p>
          <p className="text-sm text-warning">{NODE_MSG.deletedForeverOn(formatDate(item.purgeAfter))}</p>
        </div>
      </div>
      {canRestore ? (
        <Button
          variant="outline"
          size="sm"
          loading={restore.isPending}
          onClick={() => void onRestore()}
          aria-label={`Restore ${item.name}`}
        >
          <RotateCcw aria-hidden="true" />
          Restore
        </Button>
      ) : null}
    </li>
  );
}

/** The bin's list: a skeleton while it loads, the error with Retry, the empty state, or the items newest first. */
export function RecycleBinList({ matterId, canRestore }: RecycleBinProps) {
  const bin = useRecycleBin(matterId);
  if (bin.isPending)
    return (
      <div aria-busy="true" aria-label="Loading the recycle bin" className="flex flex-col gap-3 py-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  if (bin.isError)
    return (
      <ErrorState
        title={NODE_MSG.binLoadFailed}
        titleAs="h3"
        message={errorMessage(bin.error)}
        onRetry={() => void bin.refetch()}
        retrying={bin.isFetching}
      />
    );
  if (bin.data.items.length === 0) return <EmptyState icon={Trash2} title={NODE_MSG.binEmpty} titleAs="p" />;
  return (
    <ul className="divide-y divide-border" aria-label="Deleted items">
      {bin.data.items.map((item) => (
        <BinRow key={item.binEntryId} item={item} canRestore={canRestore} matterId={matterId} />
      ))}
    </ul>
  );
}

/** The toolbar's 'Recycle bin' button and the dialog it opens. */
export function RecycleBinButton(props: RecycleBinProps) {
  const [open, setOpen] = useState(false);
  const days = useBinDays(open);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden="true" />
        {NODE_MSG.binTitle}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>{NODE_MSG.binTitle}</DialogTitle>
            <DialogDescription>{NODE_MSG.binDescription(days)}</DialogDescription>
          </DialogHeader>
          <div className="max-h-[60vh] overflow-y-auto">{open ? <RecycleBinList {...props} /> : null}</div>
        </DialogContent>
      </Dialog>
    </>
  );
}
