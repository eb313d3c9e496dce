import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Pencil, Plus, ShieldCheck, Trash2 } from 'lucide-react';
import {
  AUDIT_LOG_MSG,
  SCAN_TARGET_TYPES,
  SECURITY_TOOLING_MSG,
  type ComplianceReport,
  type IntegrityCheckResponse,
  type ScanTargetType,
  type SecurityAssessmentResponse,
  type SecurityPolicy,
  type VulnerabilityScanResponse,
} from '@strongroom/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { runComplianceCheck } from '../api/run-compliance-check';
import { runIntegrityCheck } from '../api/run-integrity-check';
import { runSecurityAssessment } from '../api/run-security-assessment';
import { runVulnerabilityScan } from '../api/run-vulnerability-scan';
import { useManagePolicy, useSecurityPolicies } from '../api/security-policies';
import { PolicyDialog } from './policy-dialog';

const SEVERITY_TONE: Record<string, BadgeTone> = { CRITICAL: 'danger', HIGH: 'danger', MEDIUM: 'warning', LOW: 'neutral', INFO: 'outline' };
const STATUS_TONE: Record<string, BadgeTone> = { compliant: 'success', non_compliant: 'danger', error: 'warning' };
const STATUS_TEXT: Record<string, string> = { compliant: 'Compliant', non_compliant: 'Non-compliant', error: 'Error' };

const failed = (error: unknown) => {
  if (!isMfaCancelledError(error)) toast.error(errorMessage(error));
};

function Part({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  const id = `security-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="grid gap-3 border-t border-border pt-5 first:border-t-0 first:pt-0">
      <div className="grid gap-0.5">
        <h3 id={id} className="font-medium">
          {title}
        </h3>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}

/**
 * Security tooling for administrators: the audit chain's integrity check, the compliance check against the
 * active policies, vulnerability scans per target type, an assessment over chosen scans, and the policies.
 */
export function SecurityToolingSection() {
  return (
    <Card className="mt-6">
      <CardHeader>
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          <ShieldCheck aria-hidden="true" className="size-5" />
          {SECURITY_TOOLING_MSG.sectionTitle}
        </h2>
        <CardDescription>Check the audit chain, measure compliance, scan for weaknesses and manage security policies.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <IntegrityPart />
        <CompliancePart />
        <ScansPart />
        <PoliciesPart />
      </CardContent>
    </Card>
  );
}

function IntegrityPart() {
  const [result, setResult] = useState<IntegrityCheckResponse | null>(null);
  const check = useMutation({
    mutationFn: runIntegrityCheck,
    meta: { handlesError: true },
    onSuccess: (r) => {
      setResult(r);
      if (r.isValid) toast.success(AUDIT_LOG_MSG.integrityPassed(r.checkedEntries), { description: r.anchor.message });
      else toast.error(AUDIT_LOG_MSG.integrityFailed(r.invalidEntries.length), { description: r.anchor.message });
    },
    onError: failed,
  });
  return (
    <Part title="Audit log integrity" description="Verifies every entry's hash, the links between entries and the last signed chain head.">
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
    </Part>
  );
}

function CompliancePart() {
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
    onError: failed,
  });
  return (
    <Part
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
    </Part>
  );
}

function ScansPart() {
  const [targetType, setTargetType] = useState<ScanTargetType>('APPLICATION');
  const [targetIdentifier, setTargetIdentifier] = useState('strongroom');
  const [identifierError, setIdentifierError] = useState<string | null>(null);
  const [scans, setScans] = useState<VulnerabilityScanResponse[]>([]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [assessment, setAssessment] = useState<SecurityAssessmentResponse | null>(null);

  const scan = useMutation({
    mutationFn: runVulnerabilityScan,
    meta: { handlesError: true },
    onSuccess: (r) => {
      setScans((s) => [r, ...s]);
      setSelected((s) => new Set(s).add(r.scanId));
      const n = r.summary.totalVulnerabilities;
      if (n === 0) toast.success(SECURITY_TOOLING_MSG.scanClean);
      else toast.warning(SECURITY_TOOLING_MSG.scanFound(n));
    },
    onError: failed,
  });
  const assess = useMutation({
    mutationFn: runSecurityAssessment,
    meta: { handlesError: true },
    onSuccess: (r) => {
      setAssessment(r);
      const text = SECURITY_TOOLING_MSG.assessmentDone(r.overallRiskLevel);
      if (r.overallRiskLevel === 'CRITICAL' || r.overallRiskLevel === 'HIGH') toast.error(text);
      else toast.success(text);
    },
    onError: failed,
  });

  const runScan = () => {
    if (targetIdentifier.trim() === '') return setIdentifierError(SECURITY_TOOLING_MSG.targetIdentifierEmpty);
    setIdentifierError(null);
    scan.mutate({ targetType, targetIdentifier: targetIdentifier.trim() });
  };
  const runAssessment = () => {
    if (selected.size === 0) return toast.error(SECURITY_TOOLING_MSG.scanIdsEmpty);
    assess.mutate({ scanIds: [...selected] });
  };

  return (
    <Part
      title="Vulnerability scans"
      description="Scans what Strongroom can inspect of each target, then combines chosen scans into one risk level."
    >
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <label htmlFor="scan-target-type" className="text-sm font-medium">
            Target type
          </label>
          <Select value={targetType} onValueChange={(v) => setTargetType(v as ScanTargetType)}>
            <SelectTrigger id="scan-target-type" className="w-48" aria-label="Target type">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {SCAN_TARGET_TYPES.map((t) => (
                <SelectItem key={t} value={t}>
                  {t}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1">
          <label htmlFor="scan-target-identifier" className="text-sm font-medium">
            Target identifier
          </label>
          <Input
            id="scan-target-identifier"
            className="w-56"
            value={targetIdentifier}
            onChange={(e) => setTargetIdentifier(e.target.value)}
            aria-invalid={identifierError ? true : undefined}
            aria-describedby={identifierError ? 'scan-target-identifier-error' : undefined}
          />
        </div>
        <Button variant="outline" onClick={runScan} loading={scan.isPending} loadingText="Scanning...">
          Run scan
        </Button>
      </div>
      {identifierError ? (
        <p id="scan-target-identifier-error" className="text-sm text-danger">
          {identifierError}
        </p>
      ) : null}
      {scans.length > 0 ? (
        <div className="grid gap-3" data-testid="scan-results">
          {scans.map((s) => (
            <div key={s.scanId} className="grid gap-2 rounded-md border border-border p-3">
              <label className="flex flex-wrap items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={selected.has(s.scanId)}
                  onChange={(e) =>
                    setSelected((prev) => {
                      const next = new Set(prev);
                      if (e.target.checked) next.add(s.scanId);
                      else next.delete(s.scanId);
                      return next;
                    })
                  }
                />
                <span className="font-medium">
                  {s.targetType} scan of {s.targetIdentifier}
                </span>
                <span className="text-muted-foreground">
                  {s.summary.totalVulnerabilities} vulnerabilit{s.summary.totalVulnerabilities === 1 ? 'y' : 'ies'}
                </span>
              </label>
              {s.findings.length > 0 ? (
                <ul className="grid gap-1.5 text-sm">
                  {s.findings.map((f) => (
                    <li key={f.id} className="flex flex-wrap items-baseline gap-2">
                      <Badge tone={SEVERITY_TONE[f.severity]}>{f.severity}</Badge>
                      <span className="font-medium">{f.title}</span>
                      <span className="text-muted-foreground">
                        {f.detail} {f.recommendation}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ))}
          <div>
            <Button onClick={runAssessment} loading={assess.isPending} loadingText="Assessing..." disabled={selected.size === 0}>
              Assess selected scans ({selected.size})
            </Button>
          </div>
        </div>
      ) : null}
      {assessment ? (
        <p role="status" className="text-sm" data-testid="assessment-result">
          <Badge tone={SEVERITY_TONE[assessment.overallRiskLevel]}>Risk {assessment.overallRiskLevel}</Badge> {assessment.summary.text}
        </p>
      ) : null}
    </Part>
  );
}

function PoliciesPart() {
  const policies = useSecurityPolicies();
  const manage = useManagePolicy();
  const [editing, setEditing] = useState<{ policy: SecurityPolicy | null } | null>(null);
  const [deleting, setDeleting] = useState<SecurityPolicy | null>(null);

  const remove = () => {
    if (!deleting) return;
    manage.mutate(
      { operation: 'delete', policyName: deleting.name },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          setDeleting(null);
        },
        onError: failed,
      },
    );
  };

  return (
    <Part title="Security policies" description="Versioned rules the compliance check applies; every change is audited.">
      <div>
        <Button variant="outline" onClick={() => setEditing({ policy: null })}>
          <Plus aria-hidden="true" />
          New policy
        </Button>
      </div>
      {policies.isPending ? (
        <div className="grid gap-2" aria-busy="true">
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </div>
      ) : policies.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(policies.error)}
        </p>
      ) : policies.data.policies.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No security policies yet. Without one the compliance check uses Strongroom's defaults.
        </p>
      ) : (
        <Table aria-label="Security policies">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Name</TableHead>
              <TableHead>Description</TableHead>
              <TableHead>Version</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {policies.data.policies.map((p) => (
              <TableRow key={p.id}>
                <TableCell className="font-mono text-xs">{p.name}</TableCell>
                <TableCell className="text-sm">{p.description}</TableCell>
                <TableCell>v{p.version}</TableCell>
                <TableCell>
                  <Badge tone={p.isActive ? 'success' : 'neutral'}>{p.isActive ? 'Active' : 'Inactive'}</Badge>
                </TableCell>
                <TableCell className="text-right whitespace-nowrap">
                  <Button variant="ghost" size="icon-sm" aria-label={`Edit policy ${p.name}`} onClick={() => setEditing({ policy: p })}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button variant="ghost" size="icon-sm" aria-label={`Delete policy ${p.name}`} onClick={() => setDeleting(p)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <PolicyDialog policy={editing?.policy ?? null} open={editing !== null} onOpenChange={(o) => (o ? null : setEditing(null))} />
      <Dialog open={deleting !== null} onOpenChange={(o) => (o ? null : setDeleting(null))}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete policy {deleting?.name}?</DialogTitle>
            <DialogDescription>The compliance check stops applying it. The deletion is recorded in the audit log.</DialogDescription>
          </DialogHeader>
          <DialogActions
            onCancel={() => setDeleting(null)}
            onSubmit={remove}
            submitLabel="Delete policy"
            pendingLabel="Deleting..."
            pending={manage.isPending}
            variant="destructive"
          />
        </DialogContent>
      </Dialog>
    </Part>
  );
}
