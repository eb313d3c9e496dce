import { ROLE_LABELS, ROLES, TEAM_MSG, type Role } from '@strongroom/contracts';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { type MemberDraft } from '../hooks/use-member-draft';

type RoleStatusSectionProps = {
  draft: MemberDraft;
  loading: boolean;
  /** Whether the viewer may change the member now. */
  editable: boolean;
  /** The member is the viewer, who cannot deactivate their own account. */
  isSelf: boolean;
};

/**
 * Role and status: the role (with what it allows) and the account status switch. A new role or status waits
 * for its confirmation dialog; going back to the stored one does not.
 */
export function RoleStatusSection({ draft, loading, editable, isSelf }: RoleStatusSectionProps) {
  const { values, base: user } = draft;
  return (
    <section aria-labelledby="drawer-role-heading" className="grid gap-4">
      <h3 id="drawer-role-heading" className="text-sm font-semibold">
        Role and status
      </h3>
      {loading || !values || !user ? (
        <div className="grid gap-3">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : (
        <>
          <div className="grid gap-2">
            <Label htmlFor="drawer-role">Role</Label>
            <Select value={values.role} disabled={!editable} onValueChange={(v) => draft.chooseRole(v as Role)}>
              <SelectTrigger id="drawer-role" aria-describedby="drawer-role-description">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {ROLES.map((r) => (
                  <SelectItem key={r} value={r}>
                    {ROLE_LABELS[r].label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p id="drawer-role-description" className="text-xs text-muted-foreground">
              {ROLE_LABELS[values.role].description}
            </p>
          </div>
          <div className="flex items-center justify-between gap-4 rounded-md border border-border px-3.5 py-3">
            <div className="grid gap-0.5">
              <Label htmlFor="drawer-status">Account Status</Label>
              <span id="drawer-status-text" className="text-xs text-muted-foreground">
                {isSelf ? TEAM_MSG.cannotDeactivateSelf : values.isActive ? 'Active' : 'Deactivated'}
              </span>
            </div>
            <Switch
              id="drawer-status"
              aria-describedby="drawer-status-text"
              checked={values.isActive}
              disabled={!editable || isSelf}
              onCheckedChange={draft.setActive}
            />
          </div>
        </>
      )}
    </section>
  );
}
