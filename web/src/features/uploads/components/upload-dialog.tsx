import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2, RotateCw, Upload, UploadCloud, X } from 'lucide-react';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/class-names';
import { formatBytes } from '@/lib/format-bytes';
import { matterDetailQueryKey, mattersQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { abortUpload, checkFile, runUpload, uploadErrorMessage } from '../lib/run-upload';
import { trackActiveUpload } from '../lib/saved-uploads';
import { isMultipart } from '../lib/upload-plan';

export type UploadState = 'idle' | 'uploading' | 'cancelling' | 'success' | 'error';

type Row = {
  id: string;
  file: File;
  state: UploadState;
  loaded: number;
  /** Bytes per second over the current attempt. */
  speed: number;
  error: string | null;
  /** The file breaks a rule: it cannot be retried, only removed. */
  invalid: boolean;
  resumedParts: number | null;
};

type UploadDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizationId: string;
  matterId: string;
  parentId: string | null;
  folderName: string;
};

const AUTO_CLOSE_MS = 1500;
const STATE_LABEL: Record<UploadState, string> = {
  idle: 'Ready',
  uploading: 'Uploading',
  cancelling: 'Cancelling',
  success: 'Uploaded',
  error: 'Failed',
};

let rowSeq = 0;

/** Upload Files: drop or pick files, each uploaded straight to the store with progress, cancel and retry. */
export function UploadDialog({ open, onOpenChange, organizationId, matterId, parentId, folderName }: UploadDialogProps) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Row[]>([]);
  const [dragging, setDragging] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const controllers = useRef(new Map<string, AbortController>());
  const inputRef = useRef<HTMLInputElement>(null);
  const batchReported = useRef(true);

  const patch = useCallback((id: string, change: Partial<Row>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...change } : r))), []);

  const active = rows.some((r) => r.state === 'uploading' || r.state === 'cancelling');

  const cancel = useCallback(
    async (row: Row) => {
      patch(row.id, { state: 'cancelling' });
      controllers.current.get(row.id)?.abort();
      const failure = isMultipart(row.file.size) ? await abortUpload(row.file, organizationId) : null;
      patch(row.id, { state: 'error', error: failure ?? UPLOAD_MSG.aborted, speed: 0 });
    },
    [organizationId, patch],
  );

  const start = useCallback(
    async (row: Row) => {
      const controller = new AbortController();
      controllers.current.set(row.id, controller);
      // A logout or another user signing in cancels the upload like the Cancel button would.
      const untrack = trackActiveUpload(organizationId, () => cancel(row));
      batchReported.current = false;
      const startedAt = performance.now();
      let firstLoaded: number | null = null;
      patch(row.id, { state: 'uploading', error: null, loaded: 0, speed: 0, resumedParts: null });
      try {
        await runUpload(
          row.file,
          { organizationId, matterId, parentId },
          {
            onProgress: (loaded) => {
              if (firstLoaded === null) firstLoaded = loaded;
              const seconds = (performance.now() - startedAt) / 1000;
              patch(row.id, { loaded, speed: seconds > 0.2 ? (loaded - firstLoaded) / seconds : 0 });
            },
            onResume: (n) => patch(row.id, { resumedParts: n }),
          },
          controller.signal,
        );
        patch(row.id, { state: 'success', loaded: row.file.size, speed: 0 });
      } catch (error) {
        if (controller.signal.aborted) return; // cancel() settles the row
        patch(row.id, { state: 'error', error: uploadErrorMessage(error), speed: 0 });
      } finally {
        untrack();
        controllers.current.delete(row.id);
      }
    },
    [cancel, matterId, organizationId, parentId, patch],
  );

  const addFiles = (files: FileList | File[]) => {
    const added: Row[] = [...files].map((file) => {
      const problem = checkFile(file);
      rowSeq += 1;
      return {
        id: `u${rowSeq}`,
        file,
        state: problem ? 'error' : 'idle',
        loaded: 0,
        speed: 0,
        error: problem,
        invalid: problem !== null,
        resumedParts: null,
      };
    });
    setRows((rs) => [...rs, ...added]);
  };

  // The batch is over when nothing runs and something was attempted.
  useEffect(() => {
    if (batchReported.current || active || rows.length === 0) return;
    if (rows.some((r) => r.state === 'idle')) return;
    batchReported.current = true;
    void queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matterId) });
    void queryClient.invalidateQueries({ queryKey: mattersQueryKey });
    if (rows.every((r) => r.state === 'success')) {
      toast.success(UPLOAD_MSG.allUploaded(rows.length));
      const t = setTimeout(() => close(true), AUTO_CLOSE_MS);
      return () => clearTimeout(t);
    }
    toast.error(UPLOAD_MSG.someFailed);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows, active]);

  const close = (force = false) => {
    if (!force && active) {
      setConfirmClose(true);
      return;
    }
    setRows([]);
    onOpenChange(false);
  };

  const cancelAllAndClose = async () => {
    setConfirmClose(false);
    await Promise.all(rows.filter((r) => r.state === 'uploading').map((r) => cancel(r)));
    batchReported.current = true;
    close(true);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) addFiles(e.dataTransfer.files);
  };

  const idle = rows.filter((r) => r.state === 'idle');
  const done = rows.filter((r) => r.state === 'success').length;

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
                if (e.target.files) addFiles(e.target.files);
                e.target.value = '';
              }}
            />
          </div>
          {rows.length > 0 ? (
            <ul aria-label="Files to upload" className="grid max-h-72 gap-2 overflow-y-auto">
              {rows.map((r) => {
                const pct = r.file.size ? Math.round((r.loaded / r.file.size) * 100) : 0;
                return (
                  <li key={r.id} className="grid gap-2 rounded-md border border-border p-3" aria-label={r.file.name}>
                    <div className="flex items-center gap-3">
                      <div className="min-w-0 flex-1">
                        <p className="truncate text-sm font-medium">{r.file.name}</p>
                        <p className="text-xs text-muted-foreground tabular-nums">
                          {formatBytes(r.file.size)}
                          {r.state === 'uploading' && r.speed > 0 ? ` · ${formatBytes(Math.round(r.speed))}/s` : ''}
                          {r.resumedParts ? ` · resumed, ${r.resumedParts} parts already stored` : ''}
                        </p>
                      </div>
                      <Badge tone={r.state === 'success' ? 'success' : r.state === 'error' ? 'danger' : r.state === 'idle' ? 'neutral' : 'primary'}>
                        {r.state === 'success' ? <CheckCircle2 aria-hidden="true" /> : r.state === 'error' ? <AlertCircle aria-hidden="true" /> : null}
                        {STATE_LABEL[r.state]}
                      </Badge>
                      {r.state === 'uploading' ? (
                        <Button variant="ghost" size="sm" onClick={() => void cancel(r)}>
                          Cancel
                        </Button>
                      ) : null}
                      {r.state === 'error' && !r.invalid ? (
                        <Button variant="ghost" size="sm" onClick={() => void start(r)}>
                          <RotateCw aria-hidden="true" />
                          Retry
                        </Button>
                      ) : null}
                      {r.state === 'idle' || r.state === 'error' ? (
                        <Button variant="ghost" size="icon-sm" aria-label={`Remove ${r.file.name}`} onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}>
                          <X aria-hidden="true" />
                        </Button>
                      ) : null}
                    </div>
                    {r.state !== 'error' || r.loaded > 0 ? (
                      <div
                        role="progressbar"
                        aria-label={`Progress of ${r.file.name}`}
                        aria-valuemin={0}
                        aria-valuemax={100}
                        aria-valuenow={pct}
                        className="h-1.5 overflow-hidden rounded-full bg-muted"
                      >
                        <div
                          className={cn('h-full rounded-full transition-[width] duration-200', r.state === 'success' ? 'bg-success' : r.state === 'error' ? 'bg-danger' : 'bg-primary')}
                          style={{ width: `${pct}%` }}
                        />
                      </div>
                    ) : null}
                    {r.error ? (
                      <p role="alert" className="text-xs font-medium text-danger">
                        {r.error}
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          ) : null}
          <DialogFooter className="items-center sm:justify-between">
            <p className="text-xs text-muted-foreground" aria-live="polite">
              {rows.length ? `${done} of ${rows.length} uploaded` : ''}
            </p>
            <div className="flex gap-2">
              <Button variant="outline" onClick={() => close()}>
                {done === rows.length && rows.length > 0 ? 'Done' : 'Close'}
              </Button>
              <Button disabled={idle.length === 0} onClick={() => idle.forEach((r) => void start(r))}>
                <Upload aria-hidden="true" />
                {idle.length > 1 ? `Upload ${idle.length} Files` : 'Upload'}
              </Button>
            </div>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={confirmClose} onOpenChange={setConfirmClose}>
        <DialogContent className="max-w-sm" role="alertdialog">
          <DialogHeader>
            <DialogTitle>Cancel uploads?</DialogTitle>
            <DialogDescription>{UPLOAD_MSG.closeWithActive}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmClose(false)}>
              Keep Uploading
            </Button>
            <Button variant="destructive" onClick={() => void cancelAllAndClose()}>
              Cancel Uploads
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
