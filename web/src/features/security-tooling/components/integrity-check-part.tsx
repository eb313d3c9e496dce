import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { AUDIT_LOG_MSG, type IntegrityCheckResponse } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { runIntegrityCheck } from '../api/run-integrity-check';
import { toastFailure } from '../lib/toast-failure';
import { ToolingPart } from './tooling-part';

/** Audit log integrity: checks the audit chain and shows what was checked, the signed head and the first broken entries. */
export function IntegrityCheckPart() {
  const [result, setResult] = useState<IntegrityCheckResponse | null>(null);
  const check = useMutation({
    mutationFn: runIntegrityCheck,
    meta: { handlesError: true },
    onSuccess: (r) => {
      setResult(r);
      if (r.isValid) toast.success(AUDIT_LOG_MSG.integrityPassed(r.checkedEntries), { description: r.anchor.message });
      else toast.error(AUDIT_LOG_MSG.integrityFailed(r.invalidEntries.length), { description: r.anchor.message });
    },
    onError: toastFailure,
  });
  return (
    <ToolingPart
      title="Audit log integrity"
      description="Verifies every entry's hash, the links between entries and the last signed chain head."
    >
      <div>
        <Button variant="outline" onClick={() => check.mutate()} loading={check.isPending} loadingText="Checking...">
          Run integrity check
        </Button>
      </div>
      {result ? (
        <div role="status" className="grid gap-2 text-sm" data-testid="integrity-result">
          <p>
            <Badge tone={result.isValid ? 'success' : 'danger'}>{result.isValid ? 'Chain valid' : 'Chain broken'}</Badge>{' '}
            {result.checkedEntries.toLocaleString()} entries checked, {result.invalidEntries.length} invalid.
            {result.signedHead
              ? ` Last signed head: entry ${result.signedHead.seq}, ${new Date(result.signedHead.signedAt).toLocaleString()}.`
              : ''}
          </p>
          <p data-testid="integrity-anchor">{result.anchor.message}</p>
          {result.invalidEntries.length > 0 ? (
            <ul className="list-disc pl-5 text-danger">
              {result.invalidEntries.slice(0, 10).map((e) => (
                <li key={`${e.seq}-${e.id ?? 'missing'}`}>
                  Entry {e.seq}
                  {e.id ? ` (id ${e.id})` : ' (missing)'}: {e.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </ToolingPart>
  );
}
