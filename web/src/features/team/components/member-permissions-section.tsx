import { PERMISSION_KEYS, PERMISSION_LABELS, TEAM_LIMITS } from '@strongroom/contracts';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { type MemberDraft } from '../hooks/use-member-draft';

/** Permissions: the eight switches, each with what it allows. */
export function PermissionsSection({ draft, loading, editable }: { draft: MemberDraft; loading: boolean; editable: boolean }) {
  const { values } = draft;
  return (
    <section aria-labelledby="drawer-permissions-heading" className="grid gap-3">
      <h3 id="drawer-permissions-heading" className="text-sm font-semibold">
        Permissions
      </h3>
      {loading || !values ? (
        <ul aria-busy="true" aria-label="Loading permissions" className="grid gap-2">
          {Array.from({ length: TEAM_LIMITS.permissionSkeletonRows }, (_, i) => (
            <li key={i}>
              <Skeleton className="h-12" />
            </li>
          ))}
        </ul>
      ) : (
        <ul className="grid gap-2">
          {PERMISSION_KEYS.map((k) => (
            <li key={k} className="flex items-center justify-between gap-4 rounded-md border border-border px-3.5 py-2.5">
              <div className="grid gap-0.5">
                <Label htmlFor={`perm-${k}`}>{PERMISSION_LABELS[k].label}</Label>
                <span id={`perm-${k}-text`} className="text-xs text-muted-foreground">
                  {PERMISSION_LABELS[k].description}
                </span>
              </div>
              <Switch
                id={`perm-${k}`}
                aria-describedby={`perm-${k}-text`}
                checked={values.permissions[k]}
                disabled={!editable}
                onCheckedChange={(on) => draft.setPermission(k, on)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
