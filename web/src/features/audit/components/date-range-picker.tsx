import { useState } from 'react';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import { AUDIT_LOG_MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/class-names';
import { formatDay, type DateRange } from '../lib/audit-filters';

type DateRangePickerProps = {
  value: DateRange | null;
  onChange: (range: DateRange | null) => void;
};

const WEEKDAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
const dayValue = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

function Month({ month, value, onPick }: { month: Date; value: DateRange | null; onPick: (d: Date) => void }) {
  const year = month.getFullYear();
  const m = month.getMonth();
  const first = new Date(year, m, 1);
  const lead = (first.getDay() + 6) % 7;
  const days = new Date(year, m + 1, 0).getDate();
  const title = first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
  const from = value ? dayValue(value.from) : null;
  const to = value?.to ? dayValue(value.to) : from;
  const today = new Date();
  return (
    <div className="grid gap-2" role="group" aria-label={title}>
      <p className="text-center text-sm font-medium">{title}</p>
      <div className="grid grid-cols-7 gap-0.5 text-center text-xs">
        {WEEKDAYS.map((w) => (
          <span key={w} aria-hidden="true" className="py-1 text-muted-foreground">
            {w}
          </span>
        ))}
        {Array.from({ length: lead }, (_, i) => (
          <span key={`lead-${i}`} aria-hidden="true" />
        ))}
        {Array.from({ length: days }, (_, i) => {
          const d = new Date(year, m, i + 1);
          const v = d.getTime();
          const selected = from !== null && to !== null && v >= from && v <= to;
          const edge = v === from || v === to;
          return (
            <button
              key={i}
              type="button"
              onClick={() => onPick(d)}
              aria-pressed={selected}
              aria-label={d.toLocaleDateString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' })}
              className={cn(
                'h-8 rounded-md text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring',
                selected && 'bg-accent text-accent-foreground',
                edge && 'bg-primary text-primary-foreground hover:bg-primary/90',
                sameDay(d, today) && !edge && 'font-semibold underline',
              )}
            >
              {i + 1}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/**
 * A date range over two months side by side. The first click starts a range, the second ends it (an earlier
 * day swaps the ends); a third starts a new one.
 */
export function DateRangePicker({ value, onChange }: DateRangePickerProps) {
  const [open, setOpen] = useState(false);
  const anchor = value?.to ?? value?.from ?? new Date();
  const [month, setMonth] = useState(() => new Date(anchor.getFullYear(), anchor.getMonth() - 1, 1));
  const second = new Date(month.getFullYear(), month.getMonth() + 1, 1);

  const pick = (d: Date) => {
    if (!value || value.to) return onChange({ from: d, to: null });
    if (d.getTime() < value.from.getTime()) return onChange({ from: d, to: value.from });
    onChange({ from: value.from, to: d });
  };

  const label = value
    ? value.to && !sameDay(value.from, value.to)
      ? `${formatDay(value.from)} - ${formatDay(value.to)}`
      : formatDay(value.from)
    : AUDIT_LOG_MSG.pickDate;

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="outline"
          className={cn('justify-start font-normal', !value && 'text-muted-foreground')}
          aria-label={`Date range: ${label}`}
        >
          <CalendarDays aria-hidden="true" />
          {label}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-auto">
        <div className="mb-2 flex items-center justify-between">
          <Button
            variant="ghost"
            size="sm"
            aria-label="Previous month"
            onClick={() => setMonth(new Date(month.getFullYear(), month.getMonth() - 1, 1))}
          >
            <ChevronLeft aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label="Next month"
            onClick={() => setMonth(new Date(month.getFullYear(), month.getMonth() + 1, 1))}
          >
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
        <div className="flex flex-col gap-4 sm:flex-row" data-testid="date-range-months">
          <Month month={month} value={value} onPick={pick} />
          <Month month={second} value={value} onPick={pick} />
        </div>
        <div className="mt-3 flex justify-end gap-2">
          <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
            Any date
          </Button>
          <Button size="sm" onClick={() => setOpen(false)}>
            Done
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
