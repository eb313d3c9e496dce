import type { NodeTreeDto } from '@strongroom/contracts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { VersionsList } from './versions-list';

type VersionsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  node: NodeTreeDto;
  canRestore: boolean;
  canDownload: boolean;
};

/** A file's versions in a dialog, opened from the file's actions menu. */
export function VersionsDialog({ open, onOpenChange, node, canRestore, canDownload }: VersionsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Versions</DialogTitle>
          <DialogDescription className="break-all">{node.name}</DialogDescription>
        </DialogHeader>
        <div className="max-h-[60vh] overflow-y-auto">
          <VersionsList node={node} canRestore={canRestore} canDownload={canDownload} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
