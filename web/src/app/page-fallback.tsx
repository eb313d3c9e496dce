import { Spinner } from '@/components/ui/spinner';

/** Shown while a page's code loads for the first time. */
export function PageFallback({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div
      role="status"
      className={
        fullScreen
          ? 'flex min-h-dvh items-center justify-center gap-3 text-sm text-muted-foreground'
          : 'flex min-h-[40dvh] items-center justify-center gap-3 text-sm text-muted-foreground'
      }
    >
      <Spinner className="size-5" />
      Loading...
    </div>
  );
}
