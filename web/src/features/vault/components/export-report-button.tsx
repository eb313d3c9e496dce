import { useState } from 'react';
import { ChevronDown, Download, FileCode2, FileText, FileType2 } from 'lucide-react';
import { VAULT_MSG, type VaultedMatterDto } from '@strongroom/contracts';
import { Button, type ButtonProps } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Tooltip } from '@/components/ui/tooltip';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { downloadVaultFile, type VaultDownloadKind } from '../api/download-vault-file';

const EXPORT_NEEDS_SELECTION = 'Select a vaulted matter to export its report.';

type ExportReportButtonProps = {
  /** The matter to export; null when none is selected. */
  matter: Pick<VaultedMatterDto, 'id' | 'matterName' | 'matterNumber' | 'transferState'> | null;
  size?: ButtonProps['size'];
};

/**
 * Export Report: the chain-of-custody report (print-ready HTML, or PDF) and the signed certificate (JSON) of a
 * vaulted matter. Both exist once every file is in the vault; before that, and with no matter chosen, the button is
 * disabled and says why.
 */
export function ExportReportButton({ matter, size = 'md' }: ExportReportButtonProps) {
  const [busy, setBusy] = useState<VaultDownloadKind | null>(null);
  const why = !matter ? EXPORT_NEEDS_SELECTION : matter.transferState !== 'completed' ? VAULT_MSG.certificateNotReady : null;

  if (why || !matter) {
    return (
      <Tooltip content={why}>
        <span tabIndex={0} className="inline-flex rounded-md focus-visible:outline-2 focus-visible:outline-ring">
          <Button variant="outline" size={size} disabled>
            <Download aria-hidden="true" />
            Export Report
          </Button>
        </span>
      </Tooltip>
    );
  }

  const download = async (kind: VaultDownloadKind) => {
    setBusy(kind);
    try {
      const name = await downloadVaultFile(kind, matter.id, matter.matterNumber ?? matter.id);
      toast.success(`Downloaded ${name}`);
    } catch (err) {
      toast.error(errorMessage(err, kind === 'certificate' ? VAULT_MSG.certificateFailed : VAULT_MSG.reportFailed));
    } finally {
      setBusy(null);
    }
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size={size} loading={busy !== null} loadingText="Exporting...">
          <Download aria-hidden="true" />
          Export Report
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent aria-label={`Export ${matter.matterName}`}>
        <DropdownMenuItem onSelect={() => void download('report')}>
          <FileText aria-hidden="true" />
          Chain-of-custody report (HTML)
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void download('report-pdf')}>
          <FileType2 aria-hidden="true" />
          Chain-of-custody report (PDF)
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void download('certificate')}>
          <FileCode2 aria-hidden="true" />
          Signed certificate (JSON)
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
