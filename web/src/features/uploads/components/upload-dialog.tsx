import { useRef, useState, type DragEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2, RotateCw, Upload, UploadCloud, X } from 'lucide-react';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/class-names';
import { formatBytes } from '@/lib/format-bytes';
import { matterDetailQueryKey, mattersQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import type { UploadTransport } from '../lib/run-upload';
import {
  canRemove,
  canRetry,
  CONFLICT_CHOICES,
  percentOf,
  stateLabel,
  type QueueSummary,
  type UploadRow,
  type UploadState,
} from '../lib/upload-queue';
import { useUploadQueue } from '../lib/use-upload-queue';

type UploadDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizationId: string;
  matterId: string;
  parentId: string | null;
  folderName: string;
  /** Names of the files in the folder, to ask what to do with a file of the same name before uploading it. */
  existingNames?: readonly string[];
  /** The network the uploads use; the default is the upload API and the store. */
  transport?: UploadTransport;
};

const AUTO_CLOSE_MS = 1500;
const BADGE_TONE: Record<UploadState, 'success' | 'danger' | 'neutral' | 'primary'> = {
  idle: 'neutral',
  uploading: 'primary',
  cancelling: 'primary',
  success: 'success',
  error: 'danger',
};

/**
 * A file whose name the folder holds already: upload it as a new version (the default), keep both (the new one
 * named 'name (2).ext') or skip it; with more than one such file, the choice can be applied to all.
 */
function ConflictChooser({ row: r, queue, many }: { row: UploadRow; queue: ReturnType<typeof useUploadQueue>; many: boolean }) {
  return (
    <fieldset className="grid gap-2 rounded-md bg-muted/50 p-2">
      <legend className="sr-only">{`What to do with ${r.file.name}`}</legend>
      <p className="text-xs text-muted-foreground">An item with this name is already in the folder.</p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        {CONFLICT_CHOICES.map((c) => (
          <label key={c.value} className="flex items-center gap-1.5 text-sm">
            <input
              type="radio"
              name={`conflict-${r.id}`}
              value={c.value}
              checked={r.choice === c.value}
              onChange={() => queue.choose(r.id, c.value)}
              className="accent-primary"
            />
            {c.label}
          </label>
        ))}
        {many ? (
          <Button variant="link" size="sm" className="h-auto px-0" onClick={() => queue.chooseForAll(r.choice)}>
            Apply to all
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** One file of the upload: its size and speed, its state, cancel, retry or remove, and its progress. */
function FileRow({
  row: r,
  queue,
  onRetry,
  manyConflicts,
}: {
  row: UploadRow;
  queue: ReturnType<typeof useUploadQueue>;
  onRetry: () => void;
  manyConflicts: boolean;
}) {
  const pct = percentOf(r);
  return (
    <li className="grid gap-2 rounded-md border border-border p-3" aria-label={r.file.name}>
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{r.file.name}</p>
          <p className="text-xs text-muted-foreground tabular-nums">
            {formatBytes(r.file.size)}
            {r.state === 'uploading' && r.speed > 0 ? ` · ${formatBytes(Math.round(r.speed))}/s` : ''}
            {r.resumedParts ? ` · resumed, ${r.resumedParts} parts already stored` : ''}
          </p>
        </div>
        <Badge tone={r.invalid ? 'neutral' : BADGE_TONE[r.state]}>
          {r.state === 'success' ? <CheckCircle2 aria-hidden="true" /> : r.state === 'error' ? <AlertCircle aria-hidden="true" /> : null}
          {stateLabel(r)}
        </Badge>
        {r.state === 'uploading' ? (
          <Button variant="ghost" size="sm" onClick={() => void queue.cancel(r)}>
            Cancel
          </Button>
        ) : null}
        {canRetry(r) ? (
          <Button variant="ghost" size="sm" onClick={onRetry}>
            <RotateCw aria-hidden="true" />
            Retry
          </Button>
        ) : null}
        {canRemove(r) ? (
          <Button variant="ghost" size="icon-sm" aria-label={`Remove ${r.file.name}`} onClick={() => queue.remove(r.id)}>
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      {r.conflict && r.state === 'idle' ? <ConflictChooser row={r} queue={queue} many={manyConflicts} /> : null}
      {r.state !== 'error' || r.loaded > 0 ? (
        <ProgressBar
          label={`Progress of ${r.file.name}`}
          value={pct}
          barClassName={r.state === 'success' ? 'bg-success' : r.state === 'error' ? 'bg-danger' : undefined}
        />
      ) : null}
      {r.error ? (
        <p role="alert" className="text-xs font-medium text-danger">
          {r.error}
        </p>
      ) : null}
    </li>
  );
}

/** The whole batch's progress: bytes stored of the bytes to store, and how many files are done. */
function OverallProgress({ summary }: { summary: QueueSummary }) {
  const { loadedBytes, totalBytes, done, total } = summary;
  const pct = totalBytes ? Math.round((loadedBytes / totalBytes) * 100) : 0;
  return (
    <div className="grid min-w-0 flex-1 gap-1">
      <p className="text-xs text-muted-foreground tabular-nums" aria-live="polite">
        {`${done} of ${total} uploaded`}
        {totalBytes ? ` · ${formatBytes(loadedBytes)} of ${formatBytes(totalBytes)}` : ''}
      </p>
      <ProgressBar label="Overall progress" value={pct} className="h-1 max-w-60" />
    </div>
  );
}

/** 'Cancel uploads?': asked when the dialog is closed while uploads run. */
function CancelUploadsDialog({
  open,
  onOpenChange,
  onCancelUploads,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCancelUploads: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-sm" role="alertdialog">
        <DialogHeader>
          <DialogTitle>Cancel uploads?</DialogTitle>
          <DialogDescription>{UPLOAD_MSG.closeWithActive}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Keep Uploading
          </Button>
          <Button variant="destructive" onClick={onCancelUploads}>
            Cancel Uploads
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Upload Files: drop or pick files, each uploaded straight to the store with progress, cancel and retry. */
export function UploadDialog({
  open,
  onOpenChange,
  organizationId,
  matterId,
  parentId,
  folderName,
  existingNames,
  transport,
}: UploadDialogProps) {
  const queryClient = useQueryClient();
  const [dragging, setDragging] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  // Upload pressed with no file chosen: say a file is needed (cleared by the first file added).
  const [noFile, setNoFile] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const queue = useUploadQueue({
    organizationId,
    matterId,
    parentId,
    existingNames,
    transport,
    onBatchSettled: (outcome, rows) => {
      setConfirmClose(false);
      void queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matterId) });
      void queryClient.invalidateQueries({ queryKey: mattersQueryKey });
      if (outcome === 'some-failed') {
        toast.error(UPLOAD_MSG.someFailed);
        return;
      }
      toast.success(UPLOAD_MSG.allUploaded(rows.length));
      // Adding files meanwhile keeps the dialog open (the queue changed, so this timer is cleared).
      const t = setTimeout(() => close(true), AUTO_CLOSE_MS);
      return () => clearTimeout(t);
    },
  });
  const { rows, summary } = queue;
  const { active } = summary;
  // 'Cancel uploads?' asks about uploads still running: once they have all ended there is nothing to ask.
  const asking = confirmClose && active;

  const close = (force = false) => {
    if (!force && active) {
      setConfirmClose(true);
      return;
    }
    queue.clear();
    setNoFile(false);
    onOpenChange(false);
  };

  const cancelAllAndClose = async () => {
    setConfirmClose(false);
    await queue.cancelAll();
    close(true);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) queue.add(e.dataTransfer.files);
  };

  const { idle, done } = summary;
  const manyConflicts = idle.filter((r) => r.conflict).length > 1;

  return (
    <>
      <Dialog open={open} onOpenChange={(o) => (o ? onOpenChange(true) : close())}>
        <DialogContent className="max-w-2xl" onInteractOutside={(e) => active && e.preventDefault()}>
          <DialogHeader>
            <DialogTitle>Upload Files</DialogTitle>
            <DialogDescription>Into {folderName}. Large files (100 MB or more) resume if the connection drops.</DialogDescription>
          </DialogHeader>
          <div
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={cn(
              'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed border-border px-6 py-8 text-center transition-colors',
              dragging && 'border-primary bg-primary-soft',
            )}
          >
            <UploadCloud aria-hidden="true" className="size-8 text-muted-foreground" />
            <p className="text-sm font-medium">Drag and drop files here</p>
            <p className="text-xs text-muted-foreground">PDF, Word, Excel, images, email, audio, video and ZIP, up to 5 GB each</p>
            <Button variant="outline" size="sm" className="mt-2" onClick={() => inputRef.current?.click()}>
              Choose Files
            </Button>
            <input
              ref={inputRef}
              type="file"
              multiple
              className="sr-only"
              aria-label="Choose files to upload"
              tabIndex={-1}
              onChange={(e) => {
                if (e.target.files) queue.add(e.target.files);
                e.target.value = '';
              }}
            />
          </div>
          {noFile && rows.length === 0 ? (
            <p role="alert" id="upload-no-file" className="text-sm font-medium text-danger">
              {UPLOAD_MSG.atLeastOneFile}
            </p>
          ) : null}
          {rows.length > 0 ? (
            <ul aria-label="Files to upload" className="grid max-h-72 gap-2 overflow-y-auto">
              {rows.map((r) => (
                <FileRow
                  key={r.id}
                  row={r}
                  queue={queue}
                  manyConflicts={manyConflicts}
                  onRetry={() => {
                    setConfirmClose(false);
                    void queue.start(r);
                  }}
                />
              ))}
            </ul>
          ) : null}
          <DialogFooter className="items-center sm:justify-between">
            {rows.length ? <OverallProgress summary={summary} /> : <span />}
            <div className="flex gap-2">
              <Button variant="outline" onClick={() => close()}>
                {done === rows.length && rows.length > 0 ? 'Done' : 'Close'}
              </Button>
              <Button
                disabled={rows.length > 0 && idle.length === 0}
                aria-describedby={noFile && rows.length === 0 ? 'upload-no-file' : undefined}
                onClick={() => {
                  setConfirmClose(false);
                  if (rows.length === 0) setNoFile(true);
                  else queue.startIdle();
                }}
              >
                <Upload aria-hidden="true" />
                {idle.length > 1 ? `Upload ${idle.length} Files` : 'Upload'}
              </Button>
            </div>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <CancelUploadsDialog open={asking} onOpenChange={setConfirmClose} onCancelUploads={() => void cancelAllAndClose()} />
    </>
  );
}
