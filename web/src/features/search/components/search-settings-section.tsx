import { useId, useState, type FormEvent } from 'react';
import { FileSearch, RefreshCw } from 'lucide-react';
import { DOCUMENT_SEARCH_MSG, FILE_TEXT_STATE_LABELS, FILE_TEXT_STATES, type SearchSettingsResponse } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/error-state';
import { Label } from '@/components/ui/label';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useSearchSettings, useStartReindex, useUpdateSearchSettings } from '../api/search-settings';

/** An organization reads its documents' scans in one to three OCR languages. */
const OCR_MAX = 3;
const fmt = (n: number) => n.toLocaleString('en-US');

/** Files by where their text stands, and the re-index run with its progress. */
function IndexStatus({ settings }: { settings: SearchSettingsResponse }) {
  const headingId = useId();
  const reindex = useStartReindex();
  const run = settings.reindex;
  const running = run?.state === 'running';
  const start = () =>
    reindex.mutate(
      {},
      {
        onSuccess: () => toast.success(DOCUMENT_SEARCH_MSG.reindexStarted),
        onError: (error) => !isMfaCancelledError(error) && toast.error(errorMessage(error)),
      },
    );
  return (
    <section aria-labelledby={headingId} className="grid gap-3 border-t border-border pt-6">
      <h3 id={headingId} className="text-sm font-semibold">
        Files by text state
      </h3>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 text-sm sm:grid-cols-4">
        {FILE_TEXT_STATES.map((s) => (
          <div key={s} className="grid gap-0.5">
            <dt className="text-muted-foreground">{FILE_TEXT_STATE_LABELS[s]}</dt>
            <dd className="font-medium tabular-nums">{fmt(settings.counts[s])}</dd>
          </div>
        ))}
      </dl>
      {running && run ? (
        <div className="grid gap-1.5" aria-live="polite">
          <p className="text-sm text-muted-foreground">
            Re-indexing: {fmt(run.done)} of {fmt(run.total)} files
          </p>
          <ProgressBar label="Re-index progress" value={run.total > 0 ? (run.done / run.total) * 100 : 0} className="max-w-sm" />
        </div>
      ) : null}
      <Button
        variant="outline"
        className="justify-self-start"
        onClick={start}
        disabled={running}
        loading={reindex.isPending}
        loadingText="Starting..."
      >
        <RefreshCw aria-hidden="true" />
        Re-index all documents
      </Button>
    </section>
  );
}

/** After a change of language: the documents indexed already keep the old one until they are re-indexed. */
function ReindexOffer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const reindex = useStartReindex();
  const startReindex = () =>
    reindex.mutate(
      {},
      {
        onSuccess: () => toast.success(DOCUMENT_SEARCH_MSG.reindexStarted),
        onError: (err) => !isMfaCancelledError(err) && toast.error(errorMessage(err)),
        onSettled: () => onOpenChange(false),
      },
    );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Re-index documents?</DialogTitle>
          <DialogDescription>{DOCUMENT_SEARCH_MSG.reindexOffer}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Not now
          </Button>
          <Button onClick={startReindex} loading={reindex.isPending} loadingText="Starting...">
            Re-index
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type LanguagesFormProps = { settings: SearchSettingsResponse; onLanguageChanged: () => void };

/** The language and OCR languages, saved together; a changed language offers to re-index what is indexed already. */
function LanguagesForm({ settings, onLanguageChanged }: LanguagesFormProps) {
  const ids = useId();
  const update = useUpdateSearchSettings();
  const [language, setLanguage] = useState<string>(settings.language);
  const [ocr, setOcr] = useState<string[]>(settings.ocrLanguages);
  const [error, setError] = useState<string | null>(null);
  const dirty = language !== settings.language || ocr.join() !== settings.ocrLanguages.join();
  const ocrValid = ocr.length >= 1 && ocr.length <= OCR_MAX;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ocrValid) return setError(DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid);
    setError(null);
    const languageChanged = language !== settings.language;
    update.mutate(
      { language: language as SearchSettingsResponse['language'], ocrLanguages: ocr },
      {
        onSuccess: () => {
          toast.success(DOCUMENT_SEARCH_MSG.settingsSaved);
          if (languageChanged) onLanguageChanged();
        },
        onError: (err) => setError(isMfaCancelledError(err) ? null : errorMessage(err)),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="grid max-w-xl gap-4">
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <div className="grid gap-2">
        <Label htmlFor={`${ids}-language`}>Search language</Label>
        <Select value={language} onValueChange={setLanguage}>
          <SelectTrigger id={`${ids}-language`} className="max-w-sm">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {settings.languages.map((l) => (
              <SelectItem key={l.config} value={l.config}>
                {l.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <fieldset className="grid gap-2" aria-describedby={`${ids}-ocr-hint`}>
        <legend className="mb-2 text-sm font-medium">OCR languages</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {settings.availableOcrLanguages.map((l) => (
            <label key={l.code} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={ocr.includes(l.code)}
                disabled={!ocr.includes(l.code) && ocr.length >= OCR_MAX}
                onChange={(e) => setOcr((prev) => (e.target.checked ? [...prev, l.code] : prev.filter((c) => c !== l.code)))}
              />
              {l.name}
            </label>
          ))}
        </div>
        <p id={`${ids}-ocr-hint`} className="text-xs text-muted-foreground">
          Scanned pages are read in these languages: choose one to three.
        </p>
      </fieldset>
      <Button type="submit" className="justify-self-start" disabled={!dirty} loading={update.isPending} loadingText="Saving...">
        Save
      </Button>
    </form>
  );
}

/** Settings → Document search (administrators): how documents are read and searched, and their re-indexing. */
export function SearchSettingsSection() {
  const settings = useSearchSettings();
  const headingId = useId();
  // Held here, not in the form: saving refreshes the settings, which starts the form again from them.
  const [offer, setOffer] = useState(false);
  let body;
  if (settings.isPending) {
    body = (
      <div role="status" aria-label="Loading search settings" className="grid gap-3">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-24 w-full max-w-xl" />
      </div>
    );
  } else if (settings.isError) {
    body = (
      <ErrorState
        titleAs="h3"
        message={errorMessage(settings.error)}
        onRetry={() => void settings.refetch()}
        retrying={settings.isFetching}
      />
    );
  } else {
    body = (
      <div className="grid gap-6">
        <LanguagesForm
          key={`${settings.data.language}|${settings.data.ocrLanguages.join()}`}
          settings={settings.data}
          onLanguageChanged={() => setOffer(true)}
        />
        <IndexStatus settings={settings.data} />
      </div>
    );
  }
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex items-center gap-2">
          <FileSearch aria-hidden="true" className="size-5 text-primary" />
          <h2 id={headingId} className="text-lg font-semibold">
            {DOCUMENT_SEARCH_MSG.settingsTitle}
          </h2>
        </div>
        <CardDescription>
          The language documents are searched in, the languages scans are read in, and the state of the index.
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
      <ReindexOffer open={offer} onOpenChange={setOffer} />
    </Card>
  );
}
