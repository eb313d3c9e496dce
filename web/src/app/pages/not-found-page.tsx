import { Link } from 'react-router';
import { Compass, Home } from 'lucide-react';
import { MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/document-title';

export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
        <Compass aria-hidden="true" className="size-7" />
      </div>
      <p className="font-mono text-sm font-medium text-muted-foreground">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="max-w-md text-sm text-muted-foreground">{MSG.routeNotFound}</p>
      <Button asChild className="mt-2">
        <Link to="/">
          <Home aria-hidden="true" />
          Go to the home page
        </Link>
      </Button>
    </main>
  );
}
