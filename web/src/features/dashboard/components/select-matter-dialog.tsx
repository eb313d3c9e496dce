import { useId, useState, type FormEvent } from 'react';
import { DASHBOARD_LIMITS, DASHBOARD_MSG } from '@strongroom/contracts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/class-names';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useMatterSearch } from '../api/search-matters';

export type SelectedMatter = { id: string; matterName: string };

type SelectMatterDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the chosen matter; the caller closes the dialog (it opens the next one). */
  onSelect: (matter: SelectedMatter) => void;
};

/** Which matter the upload goes into: search (more than 1 character, 300 ms after typing), 10 by name. */
export function SelectMatterDialog({ open, onOpenChange, onSelect }: SelectMatterDialogProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<SelectedMatter | null>(null);
  const [error, setError] = useState<string | null>(null);
  const debounced = useDebouncedValue(search, DASHBOARD_LIMITS.searchDebounceMs);
  const results = useMatterSearch(debounced);
  const inputId = useId();
  const errorId = useId();

  const reset = () => {
    setSearch('');
    setChosen(null);
    setError(null);
  };
  const change = (next: boolean) => {
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!chosen) {
      setError(DASHBOARD_MSG.selectMatterRequired);
      return;
    }
    // The caller moves on to the next dialog, which closes this one.
    onSelect(chosen);
    reset();
  };

  const searching = debounced.trim().length >= DASHBOARD_LIMITS.searchMinChars;
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{DASHBOARD_MSG.selectMatterTitle}</DialogTitle>
          <DialogDescription>{DASHBOARD_MSG.selectMatterDescription}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>{DASHBOARD_MSG.selectMatterSearch}</Label>
            <Input
              id={inputId}
              type="search"
              autoComplete="off"
              placeholder={DASHBOARD_MSG.selectMatterSearch}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          <fieldset className="grid max-h-72 gap-1 overflow-y-auto" aria-label={DASHBOARD_MSG.selectMatterTitle}>
            {!searching ? (
              <p className="text-sm text-muted-foreground">{DASHBOARD_MSG.selectMatterHint}</p>
            ) : results.isPending || results.isFetching ? (
              <div role="status" aria-label={DASHBOARD_MSG.selectMatterSearch} className="grid gap-2">
                <Skeleton className="h-9" />
                <Skeleton className="h-9" />
              </div>
            ) : results.isError ? (
              <p role="alert" className="text-sm text-danger">
                {errorMessage(results.error, DASHBOARD_MSG.searchFailed)}
              </p>
            ) : results.data.matters.length === 0 ? (
              <p className="text-sm text-muted-foreground">{DASHBOARD_MSG.selectMatterNone}</p>
            ) : (
              results.data.matters.map((m) => (
                <label
                  key={m.id}
                  className={cn(
                    'flex cursor-pointer items-center gap-3 rounded-md border border-transparent px-3 py-2 text-sm hover:bg-accent/50',
                    chosen?.id === m.id && 'border-primary bg-primary-soft',
                  )}
                >
                  <input
                    type="radio"
                    name="matter"
                    value={m.id}
                    checked={chosen?.id === m.id}
                    onChange={() => {
                      setChosen({ id: m.id, matterName: m.matterName });
                      setError(null);
                    }}
                    className="accent-primary"
                  />
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{m.matterName}</span>
                    <span className="block truncate text-xs text-muted-foreground">
                      {m.matterNumber ?? 'No number'} · {m.clientName ?? 'No client'}
                    </span>
                  </span>
                </label>
              ))
            )}
          </fieldset>
          {error ? (
            <p id={errorId} role="alert" className="text-sm text-danger">
              {error}
            </p>
          ) : null}
          <DialogActions onCancel={() => change(false)} submitLabel={DASHBOARD_MSG.selectMatterContinue} pendingLabel="" pending={false} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
