import { useState } from 'react';
import { ChevronDown, Download, FileCode2, FileSpreadsheet, FileText, FileType2, Printer } from 'lucide-react';
import { VAULT_MSG, VAULT_REGISTER_MSG, type VaultedMatterDto, type VaultRegisterFormat } from '@strongroom/contracts';
import { Button, type ButtonProps } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Tooltip } from '@/components/ui/tooltip';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { downloadVaultFile, type VaultDownloadKind } from '../api/download-vault-file';
import { downloadVaultRegister } from '../api/download-vault-register';

const EXPORT_NEEDS_SELECTION = 'Select a vaulted matter to export its report.';

type ExportReportButtonProps = {
  /** The matter to export; null when none is selected. */
  matter: Pick<VaultedMatterDto, 'id' | 'matterName' | 'matterNumber' | 'transferState'> | null;
  size?: ButtonProps['size'];
  /**
   * The page's button: it always offers the register of every vaulted matter the reader may see (CSV and a
   * printable report), and the selected matter's report once its files are all in the vault.
   */
  register?: boolean;
};

/**
 * Export Report: the chain-of-custody report (print-ready HTML, or PDF) and the signed certificate (JSON) of a
 * vaulted matter. Both exist once every file is in the vault; before that, and with no matter chosen, the button is
 * disabled and says why.
 */
export function ExportReportButton({ matter, size = 'md', register = false }: ExportReportButtonProps) {
  const [busy, setBusy] = useState<VaultDownloadKind | VaultRegisterFormat | null>(null);
  const why = !matter ? EXPORT_NEEDS_SELECTION : matter.transferState !== 'completed' ? VAULT_MSG.certificateNotReady : null;
  const ready = why === null && matter !== null;

  if (!ready && !register) {
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

  const exportRegister = async (format: VaultRegisterFormat) => {
    setBusy(format);
    try {
      toast.success(VAULT_REGISTER_MSG.downloaded(await downloadVaultRegister(format)));
    } catch (err) {
      toast.error(errorMessage(err, VAULT_REGISTER_MSG.failed));
    } finally {
      setBusy(null);
    }
  };

  const download = async (kind: VaultDownloadKind) => {
    if (!matter) return;
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
      <DropdownMenuContent aria-label={register ? 'Export' : `Export ${matter?.matterName ?? ''}`}>
        {register ? (
          <>
            <DropdownMenuItem onSelect={() => void exportRegister('csv')}>
              <FileSpreadsheet aria-hidden="true" />
              {VAULT_REGISTER_MSG.csvItem}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => void exportRegister('html')}>
              <Printer aria-hidden="true" />
              {VAULT_REGISTER_MSG.htmlItem}
            </DropdownMenuItem>
          </>
        ) : null}
        {register && ready ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuLabel>{matter.matterName}</DropdownMenuLabel>
          </>
        ) : null}
        {ready ? <MatterItems download={download} /> : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The chain-of-custody report and the signed certificate of one vaulted matter. */
function MatterItems({ download }: { download: (kind: VaultDownloadKind) => Promise<void> }) {
  return (
    <>
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
    </>
  );
}
