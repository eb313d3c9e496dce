import { TEAM_MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';

type StatusConfirmDialogProps = {
  /** deactivate: 'Deactivate User?'; reactivate: 'Reactivate User?'. */
  action: 'deactivate' | 'reactivate' | null;
  userName: string;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * Confirms the Account Status switch of the Manage drawer. The change is made when the drawer is saved; the
 * warning says what it will do.
 */
export function StatusConfirmDialog({ action, userName, onConfirm, onCancel }: StatusConfirmDialogProps) {
  const deactivate = action === 'deactivate';
  return (
    <Dialog open={action !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{deactivate ? 'Deactivate User?' : 'Reactivate User?'}</DialogTitle>
          <DialogDescription>{userName}</DialogDescription>
        </DialogHeader>
        <Alert tone={deactivate ? 'warning' : 'info'}>{deactivate ? TEAM_MSG.deactivateWarning : TEAM_MSG.reactivateWarning}</Alert>
        <DialogActions
          onCancel={onCancel}
          onSubmit={onConfirm}
          submitLabel={deactivate ? 'Deactivate' : 'Reactivate'}
          pendingLabel=""
          pending={false}
          variant={deactivate ? 'destructive' : 'primary'}
        />
      </DialogContent>
    </Dialog>
  );
}
