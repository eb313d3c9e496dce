import type { ComponentProps, ReactNode } from 'react';
import { AlertCircle, AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { cn } from '@/lib/class-names';

type AlertTone = 'info' | 'success' | 'warning' | 'danger';

const tones: Record<AlertTone, { box: string; icon: ReactNode }> = {
  info: { box: 'border-primary/30 bg-primary-soft text-primary-soft-foreground', icon: <Info aria-hidden="true" /> },
  success: { box: 'border-success/40 bg-success-soft text-foreground', icon: <CheckCircle2 aria-hidden="true" className="text-success" /> },
  warning: {
    box: 'border-warning/40 bg-warning-soft text-foreground',
    icon: <AlertTriangle aria-hidden="true" className="text-warning" />,
  },
  danger: { box: 'border-danger/40 bg-danger-soft text-foreground', icon: <AlertCircle aria-hidden="true" className="text-danger" /> },
};

type AlertProps = Omit<ComponentProps<'div'>, 'title'> & { tone?: AlertTone; title?: ReactNode };

/** An inline message box. Danger alerts are announced (role alert), the others politely (role status). */
export function Alert({ tone = 'info', title, className, children, ...props }: AlertProps) {
  const t = tones[tone];
  return (
    <div
      role={tone === 'danger' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-md border px-3.5 py-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0', t.box, className)}
      {...props}
    >
      {t.icon}
      <div className="grid gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="leading-relaxed">{children}</div> : null}
      </div>
    </div>
  );
}
