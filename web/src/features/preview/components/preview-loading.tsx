import { Skeleton } from '@/components/ui/skeleton';

/** The preview's place while the file is fetched and read. */
export function PreviewLoading() {
  return (
    <div role="status" aria-label="Loading preview" className="grid gap-2">
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-5/6" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
