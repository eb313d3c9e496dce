import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Server } from 'lucide-react';
import { API_VERSION } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useSession } from '@/features/auth/api/get-session';
import { useDocumentTitle } from '@/lib/document-title';
import { PageHeader } from '@/components/ui/page-header';
import { ACCOUNT_SECTIONS } from './help/help-sections-account';
import { RECORDS_SECTIONS } from './help/help-sections-records';
import type { HelpSection } from './help/help-section';

const SERVER_SECTION_ID = 'server-version';

/** The sections in reading order: the account first, then the records, then what a guest or auditor checks. */
const SECTIONS: HelpSection[] = [
  ACCOUNT_SECTIONS[0]!,
  ACCOUNT_SECTIONS[1]!,
  ...RECORDS_SECTIONS,
  ACCOUNT_SECTIONS[2]!,
  { id: SERVER_SECTION_ID, title: "The server's version", body: <ServerVersion /> },
];

/**
 * Help for a firm's staff: one page of sections with a table of contents, each section reachable by its anchor
 * (/help#recovery-codes), all of it plain text the browser's find can search. Every statement is what Strongroom
 * does as built; the server's version is the one the server reports in its session answer.
 */
export function HelpPage() {
  useDocumentTitle('Help');
  useScrollToHash();
  return (
    <div className="grid grid-cols-1 gap-8">
      <PageHeader
        title="Help"
        description="How Strongroom works, for everyone at the firm: sign-in, records, and what an auditor can check."
      />
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <nav aria-label="On this page" className="lg:sticky lg:top-20 lg:self-start">
          <p className="mb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">On this page</p>
          <ol className="grid gap-1 border-l border-border text-sm">
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  className="-ml-px block border-l border-transparent py-1 pl-3 text-muted-foreground hover:border-primary hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                >
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="grid min-w-0 gap-6">
          {SECTIONS.map((s) => (
            <Card key={s.id} id={s.id} role="region" aria-labelledby={`${s.id}-title`} className="grid scroll-mt-24 gap-3 p-5 sm:p-6">
              <h2 id={`${s.id}-title`} className="text-lg font-semibold tracking-tight">
                <a href={`#${s.id}`} className="hover:underline focus-visible:outline-2 focus-visible:outline-ring">
                  {s.title}
                </a>
              </h2>
              {s.body}
            </Card>
          ))}
        </div>
      </div>
    </div>
  );
}

/** The page is loaded after the address: scroll to the #section it names once the sections are there. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
}

/** The API version the server reports in its session answer, beside the one this web app was built for. */
function ServerVersion() {
  const session = useSession();
  const server = session.data?.apiVersion?.server ?? null;
  return (
    <div className="grid gap-3">
      <p className="text-sm leading-relaxed text-foreground/90">
        Quote these when you report a problem to whoever runs your firm's Strongroom.
      </p>
      <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
        <dt className="flex items-center gap-2 text-muted-foreground">
          <Server aria-hidden="true" className="size-4" />
          Server API version
        </dt>
        <dd data-testid="server-version" className="font-mono">
          {server ? (
            server
          ) : session.isPending || session.isFetching ? (
            <span role="status" aria-label="Loading the server version">
              <Skeleton className="h-5 w-16" />
            </span>
          ) : (
            <span className="flex flex-wrap items-center gap-2 font-sans">
              <span className="text-muted-foreground">The server did not answer.</span>
              <Button variant="outline" size="sm" onClick={() => void session.refetch()}>
                Retry
              </Button>
            </span>
          )}
        </dd>
        <dt className="text-muted-foreground">This app was built for API version</dt>
        <dd className="font-mono">{API_VERSION}</dd>
      </dl>
    </div>
  );
}
