import { ShieldCheck } from 'lucide-react';
import { SECURITY_TOOLING_MSG } from '@strongroom/contracts';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ComplianceCheckPart } from './compliance-check-part';
import { IntegrityCheckPart } from './integrity-check-part';
import { SecurityPoliciesPart } from './security-policies-part';
import { VulnerabilityScansPart } from './vulnerability-scans-part';

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
        <IntegrityCheckPart />
        <ComplianceCheckPart />
        <VulnerabilityScansPart />
        <SecurityPoliciesPart />
      </CardContent>
    </Card>
  );
}
