import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { SECURITY_TOOLING_MSG, type ComplianceReport } from '@strongroom/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/lib/toast';
import { runComplianceCheck } from '../api/run-compliance-check';
import { toastFailure } from '../lib/toast-failure';
import { ToolingPart } from './tooling-part';

const STATUS_TONE: Record<string, BadgeTone> = { compliant: 'success', non_compliant: 'danger', error: 'warning' };
const STATUS_TEXT: Record<string, string> = { compliant: 'Compliant', non_compliant: 'Non-compliant', error: 'Error' };

/** Compliance: evaluates the organization against its active policies and lists each check with its status. */
export function ComplianceCheckPart() {
  const [report, setReport] = useState<ComplianceReport | null>(null);
  const check = useMutation({
    mutationFn: runComplianceCheck,
    meta: { handlesError: true },
    onSuccess: (r) => {
      setReport(r);
      if (r.summary.nonCompliant === 0 && r.summary.errors === 0)
        toast.success(SECURITY_TOOLING_MSG.complianceCompliant(r.summary.totalChecks));
      else toast.warning(SECURITY_TOOLING_MSG.complianceWarning(r.summary.nonCompliant, r.summary.errors));
    },
    onError: toastFailure,
  });
  return (
    <ToolingPart
      title="Compliance"
      description="Evaluates the organization against its active policies: MFA, retention, vault locks, the audit chain, archival and administrator sign-ins."
    >
      <div>
        <Button variant="outline" onClick={() => check.mutate()} loading={check.isPending} loadingText="Checking...">
          Run compliance check
        </Button>
      </div>
      {report ? (
        <div className="grid gap-2" data-testid="compliance-result">
          <p className="text-sm" role="status">
            {report.summary.compliant} of {report.summary.totalChecks} checks compliant, {report.summary.nonCompliant} non-compliant,{' '}
            {report.summary.errors} error(s).
          </p>
          <Table aria-label="Compliance checks">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>Check</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Detail</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {report.results.map((r) => (
                <TableRow key={r.name}>
                  <TableCell className="font-mono text-xs">{r.name}</TableCell>
                  <TableCell>
                    <Badge tone={STATUS_TONE[r.status]}>{STATUS_TEXT[r.status]}</Badge>
                  </TableCell>
                  <TableCell className="text-sm">{r.detail}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </ToolingPart>
  );
}
