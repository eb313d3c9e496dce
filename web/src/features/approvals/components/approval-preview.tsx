import { AlertTriangle } from 'lucide-react';
import { APPROVAL_MSG, type ApprovalPreview } from '@strongroom/contracts';
import { formatBytes } from '@/lib/format-bytes';

type ApprovalPreviewViewProps = {
  preview: ApprovalPreview;
  /** The heading level of the preview's title inside the page or dialog. */
  titleAs?: 'h2' | 'h3' | 'p';
};

/**
 * What a governed action would do, as computed when it was asked for: its title and summary, 'This cannot be undone.'
 * where it cannot, its facts, the permissions a person would gain, and every file a destruction would remove with
 * its sha256.
 */
export function ApprovalPreviewView({ preview, titleAs: Title = 'h3' }: ApprovalPreviewViewProps) {
  // The summary already ends with the warning where it applies: shown once, prominently, not twice.
  const summary = preview.cannotBeUndone ? preview.summary.replace(APPROVAL_MSG.cannotBeUndone, '').trim() : preview.summary;
  return (
    <section className="grid gap-4" aria-label="What this request would do">
      <div className="grid gap-1">
        <Title className="text-base font-semibold break-words">{preview.title}</Title>
        {summary ? <p className="text-sm text-muted-foreground">{summary}</p> : null}
      </div>
      {preview.cannotBeUndone ? (
        <p
          role="note"
          className="flex items-center gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm font-semibold text-foreground"
        >
          <AlertTriangle aria-hidden="true" className="size-4 shrink-0 text-danger" />
          {APPROVAL_MSG.cannotBeUndone}
        </p>
      ) : null}
      {preview.facts.length > 0 ? (
        <dl className="grid gap-x-4 gap-y-2 rounded-md border border-border bg-muted/40 p-4 text-sm grid-cols-[minmax(5.5rem,auto)_1fr] sm:grid-cols-[minmax(8rem,auto)_1fr]">
          {preview.facts.map((fact, i) => (
            <div key={`${fact.label}-${i}`} className="contents">
              <dt className="text-muted-foreground">{fact.label}</dt>
              <dd className="font-medium break-words">{fact.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {preview.permissionsGained && preview.permissionsGained.length > 0 ? (
        <div className="grid gap-2">
          <p className="text-sm font-medium">Permissions they would gain</p>
          <ul className="grid list-disc gap-1 pl-5 text-sm">
            {preview.permissionsGained.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {preview.files && preview.files.length > 0 ? <PreviewFiles files={preview.files} notListed={preview.filesNotListed ?? 0} /> : null}
    </section>
  );
}

function PreviewFiles({ files, notListed }: { files: NonNullable<ApprovalPreview['files']>; notListed: number }) {
  const total = files.length + notListed;
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">
        {total} file version{total === 1 ? '' : 's'} affected
      </p>
      <div className="max-h-64 overflow-auto rounded-md border border-border" tabIndex={0} role="region" aria-label="Files affected">
        <ul className="divide-y divide-border text-sm">
          {files.map((f) => (
            <li key={`${f.path}@${f.versionNumber}`} className="grid gap-0.5 px-3 py-2">
              <span className="font-medium break-all">
                {f.path} <span className="font-normal text-muted-foreground">(version {f.versionNumber})</span>
              </span>
              <span className="text-xs text-muted-foreground">{formatBytes(f.sizeBytes)}</span>
              <code className="font-mono text-xs break-all text-muted-foreground">sha256 {f.sha256}</code>
            </li>
          ))}
        </ul>
      </div>
      {notListed > 0 ? <p className="text-xs text-muted-foreground">and {notListed} more not listed here.</p> : null}
    </div>
  );
}
