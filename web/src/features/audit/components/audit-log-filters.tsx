import { AUDIT_ACTION_CATEGORIES, AUDIT_CATEGORY_NAMES, AUDIT_LOG_MSG, type AuditActionCategory } from '@strongroom/contracts';
import { Search, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { AuditFilters } from '../lib/audit-filters';
import { DateRangePicker } from './date-range-picker';

type AuditLogFiltersProps = {
  /** The search box's text (the list follows it 500 ms after typing stops). */
  search: string;
  onSearch: (value: string) => void;
  filters: AuditFilters;
  onChange: (patch: Partial<AuditFilters>) => void;
  onClear: () => void;
};

const ALL = '__all__';

export function AuditLogFilters({ search, onSearch, filters, onChange, onClear }: AuditLogFiltersProps) {
  const actions = filters.category ? AUDIT_ACTION_CATEGORIES[filters.category] : [];
  return (
    <div className="grid gap-3">
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          type="search"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={AUDIT_LOG_MSG.searchPlaceholder}
          aria-label={AUDIT_LOG_MSG.searchPlaceholder}
          className="pl-9"
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <DateRangePicker value={filters.range} onChange={(range) => onChange({ range })} />
        <Select
          value={filters.category ?? ''}
          onValueChange={(v) => onChange({ category: v === ALL ? null : (v as AuditActionCategory), action: null })}
        >
          <SelectTrigger className="w-60" aria-label="Action category">
            <SelectValue placeholder={AUDIT_LOG_MSG.allCategories} />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{AUDIT_LOG_MSG.allCategories}</SelectItem>
            {AUDIT_CATEGORY_NAMES.map((c) => (
              <SelectItem key={c} value={c}>
                {c}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={filters.action ?? ''} onValueChange={(v) => onChange({ action: v === ALL ? null : v })} disabled={!filters.category}>
          <SelectTrigger className="w-72" aria-label={AUDIT_LOG_MSG.specificAction}>
            <SelectValue placeholder={AUDIT_LOG_MSG.specificAction} />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{AUDIT_LOG_MSG.allActionsInCategory}</SelectItem>
            {actions.map((a) => (
              <SelectItem key={a} value={a}>
                {a}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button variant="ghost" onClick={onClear}>
          <X aria-hidden="true" />
          {AUDIT_LOG_MSG.clear}
        </Button>
      </div>
    </div>
  );
}
