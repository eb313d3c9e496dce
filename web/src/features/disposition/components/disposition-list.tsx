import { Clock, ShieldAlert, Trash2 } from 'lucide-react';
import type { DispositionDecision, DispositionItem, DispositionStatus } from '@strongroom/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/class-names';
import { formatBytes } from '@/lib/format-bytes';

const TONES: Record<DispositionStatus, BadgeTone> = {
  due: 'primary',
  overdue: 'danger',
  approved: 'warning',
  extended: 'neutral',
  held: 'outline',
  destroyed: 'neutral',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** '12 days left', 'Ends today', '3 days overdue'. */
function daysInWords(item: Pick<DispositionItem, 'daysLeft' | 'status'>): string {
  if (item.status === 'destroyed') return 'Destroyed';
  if (item.daysLeft > 0) return `${plural(item.daysLeft, 'day')} left`;
  if (item.daysLeft === 0) return 'Ends today';
  return `${plural(-item.daysLeft, 'day')} overdue`;
}

export type Decide = (item: DispositionItem, decision: DispositionDecision) => void;

function Actions({ item, decide }: { item: DispositionItem; decide: Decide }) {
  if (!item.canDecide) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {item.status !== 'approved' ? (
        <Button
          size="sm"
          variant="destructive"
          onClick={() => decide(item, 'destroy')}
          aria-label={`Approve destruction of ${item.matterName}`}
        >
          <Trash2 aria-hidden="true" />
          Destroy
        </Button>
      ) : null}
      <Button size="sm" variant="outline" onClick={() => decide(item, 'extend')} aria-label={`Extend retention of ${item.matterName}`}>
        <Clock aria-hidden="true" />
        Extend
      </Button>
      <Button size="sm" variant="outline" onClick={() => decide(item, 'hold')} aria-label={`Place ${item.matterName} under legal hold`}>
        <ShieldAlert aria-hidden="true" />
        Hold
      </Button>
    </div>
  );
}

function Name({ item }: { item: DispositionItem }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <span className="truncate font-medium">{item.matterName}</span>
      <span className="truncate text-xs text-muted-foreground">
        {[item.matterNumber, item.clientName].filter(Boolean).join(' · ') || '—'}
      </span>
    </div>
  );
}

/** The queue as a table (wide screens). */
export function DispositionTable({ items, decide }: { items: DispositionItem[]; decide: Decide }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Matter</TableHead>
          <TableHead>Retention ends</TableHead>
          <TableHead>Time</TableHead>
          <TableHead>State</TableHead>
          <TableHead>Files</TableHead>
          <TableHead>
            <span className="sr-only">Decision</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.reviewId} data-testid="disposition-row">
            <TableCell className="max-w-72">
              <Name item={item} />
            </TableCell>
            <TableCell className="tabular-nums">{item.retentionExpiresAt.slice(0, 10)}</TableCell>
            <TableCell className={cn('whitespace-nowrap', item.daysLeft < 0 && item.status !== 'destroyed' && 'font-medium text-danger')}>
              {daysInWords(item)}
            </TableCell>
            <TableCell>
              <Badge tone={TONES[item.status]}>{item.statusLabel}</Badge>
            </TableCell>
            <TableCell className="text-sm text-muted-foreground tabular-nums">
              {plural(item.files, 'file')}, {formatBytes(item.bytes)}
            </TableCell>
            <TableCell>
              <Actions item={item} decide={decide} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The queue as cards (phones). */
export function DispositionCards({ items, decide }: { items: DispositionItem[]; decide: Decide }) {
  return (
    <ul className="grid gap-3">
      {items.map((item) => (
        <li key={item.reviewId} data-testid="disposition-row" className="grid gap-3 rounded-lg border border-border bg-card p-4">
          <div className="flex items-start justify-between gap-3">
            <Name item={item} />
            <Badge tone={TONES[item.status]}>{item.statusLabel}</Badge>
          </div>
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <div>
              <dt className="text-xs text-muted-foreground">Retention ends</dt>
              <dd className="tabular-nums">{item.retentionExpiresAt.slice(0, 10)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Time</dt>
              <dd className={item.daysLeft < 0 && item.status !== 'destroyed' ? 'font-medium text-danger' : undefined}>
                {daysInWords(item)}
              </dd>
            </div>
            <div className="col-span-2">
              <dt className="text-xs text-muted-foreground">In the vault</dt>
              <dd>
                {plural(item.files, 'file')} ({plural(item.versions, 'version')}), {formatBytes(item.bytes)}
              </dd>
            </div>
          </dl>
          <Actions item={item} decide={decide} />
        </li>
      ))}
    </ul>
  );
}
