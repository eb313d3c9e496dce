import { useId, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';

/** A new authenticator's QR image and, for those who cannot scan, its key with a copy button (setup wall and Settings). */
export function TotpQrCode({ qrCode, secret }: { qrCode: string; secret?: string }) {
  return (
    <div className="grid justify-items-center gap-4">
      <div className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-border">
        <img src={qrCode} alt="QR code for your authenticator app" width={184} height={184} className="size-46" />
      </div>
      {secret ? <ManualSecret secret={secret} /> : null}
    </div>
  );
}

function ManualSecret({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  const labelId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error(MSG.copyFailed);
    }
  };
  return (
    <div className="grid w-full gap-1.5">
      <p id={labelId} className="text-xs font-medium text-muted-foreground">
        Can’t scan? Enter this key in your app instead:
      </p>
      <div className="flex items-center gap-2 rounded-md border border-border bg-muted/50 py-1.5 pr-1.5 pl-3">
        <code data-testid="totp-secret" aria-labelledby={labelId} className="min-w-0 flex-1 font-mono text-sm break-all select-all">
          {secret}
        </code>
        <Button variant="ghost" size="icon-sm" onClick={() => void copy()} aria-label={copied ? 'Copied' : 'Copy secret key'}>
          {copied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}
