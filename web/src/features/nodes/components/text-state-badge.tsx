import { Clock, TriangleAlert } from 'lucide-react';
import { FILE_TEXT_STATE_LABELS, type NodeTreeDto } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';

/**
 * Whether a file's words can be searched, shown only when they cannot (yet): 'Text pending' while the background
 * job has not read it, 'Text failed' or 'No text' with the reason on hover and for screen readers. A file that is
 * indexed, or a folder, shows nothing, so that rows stay calm.
 */
export function TextStateBadge({ node }: { node: Pick<NodeTreeDto, 'nodeType' | 'textState' | 'textReason'> }) {
  const state = node.nodeType === 'file' ? node.textState : null;
  if (state !== 'pending' && state !== 'failed' && state !== 'no_text') return null;
  const label = FILE_TEXT_STATE_LABELS[state];
  const reason = state === 'pending' ? null : node.textReason;
  const Icon = state === 'pending' ? Clock : TriangleAlert;
  return (
    // In a narrow list (the preview open beside it) only the icon shows, so the name keeps its room; the words stay
    // for screen readers and on hover.
    <Badge tone="outline" className="shrink-0 font-normal text-muted-foreground" title={reason ? `${label}: ${reason}` : label}>
      <Icon aria-hidden="true" className={state === 'pending' ? 'motion-safe:animate-pulse' : undefined} />
      <span className="@max-[36rem]:sr-only">{label}</span>
      {reason ? <span className="sr-only">: {reason}</span> : null}
    </Badge>
  );
}
