import { Button } from '@/components/ui/button';

type MemberDrawerFooterProps = {
  /** Seconds left of the server's wait after a rate-limit refusal; Save stays disabled meanwhile. */
  waitSeconds: number;
  dirty: boolean;
  /** Whether the viewer may save changes at all; otherwise only Cancel shows. */
  canManage: boolean;
  saving: boolean;
  onCancel: () => void;
  onSave: () => void;
};

/** The Manage drawer's footer: the wait or Unsaved changes notice, Cancel, and Save Changes. */
export function MemberDrawerFooter({ waitSeconds, dirty, canManage, saving, onCancel, onSave }: MemberDrawerFooterProps) {
  return (
    <div className="sticky bottom-0 flex flex-wrap items-center gap-2 border-t border-border bg-popover p-4">
      <span className="mr-auto text-sm" aria-live="polite">
        {waitSeconds > 0 ? (
          <span className="text-danger">Please wait {waitSeconds} s before trying again.</span>
        ) : dirty ? (
          <span className="font-medium text-warning">Unsaved changes</span>
        ) : null}
      </span>
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      {canManage ? (
        <Button onClick={onSave} disabled={!dirty || waitSeconds > 0} loading={saving} loadingText="Saving...">
          Save Changes
        </Button>
      ) : null}
    </div>
  );
}
