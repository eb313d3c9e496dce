import { useState } from 'react';
import { Check, Copy, Download } from 'lucide-react';
import { MSG, SETTINGS_MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';

/** The file a user downloads their recovery codes into. */
const RECOVERY_CODES_FILE = 'strongroom-recovery-codes.txt';

function codesText(codes: string[]): string {
  return `Strongroom recovery codes\nEach code works once, instead of an authenticator code.\n\n${codes.join('\n')}\n`;
}

/**
 * One-time recovery codes, shown once (after the authenticator is set up, or after regenerating), with copy and
 * download: a user who loses the phone signs in with one of them.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error(MSG.copyFailed);
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([codesText(codes)], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = RECOVERY_CODES_FILE;
    document.body.append(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="grid gap-4">
      <Alert tone="warning" title="Save your recovery codes">
        {SETTINGS_MSG.recoveryCodesNotice}
      </Alert>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-lg border border-border bg-muted/50 p-4 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="text-center tracking-wider select-all">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          {copied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          <Download aria-hidden="true" />
          Download
        </Button>
      </div>
    </div>
  );
}
