import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { BrandMark } from '../shell/brand';
import { ThemeToggle } from '../shell/theme-toggle';

type AuthLayoutProps = {
  children: ReactNode;
  /** Replaces the small brand row above the card (the sign-in page shows the product heading there). */
  header?: ReactNode;
  footer?: ReactNode;
};

/** The frame of the pages used without a session: sign-in, reset, invitation, setup. */
export function AuthLayout({ children, header, footer }: AuthLayoutProps) {
  return (
    <div className="relative flex min-h-dvh flex-col bg-background">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-80 bg-[radial-gradient(ellipse_at_top,color-mix(in_srgb,var(--primary)_18%,transparent),transparent_70%)]"
      />
      <div className="relative flex justify-end p-3">
        <ThemeToggle />
      </div>
      <main className="relative flex flex-1 items-start justify-center px-4 pb-10 sm:items-center">
        <div className="grid w-full max-w-md gap-6">
          {header ?? (
            <Link
              to="/login"
              className="flex items-center justify-center gap-2.5 justify-self-center rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-ring"
            >
              <BrandMark />
              <span className="text-lg font-semibold tracking-tight">Strongroom</span>
            </Link>
          )}
          <Card className="p-6 shadow-lg sm:p-8">{children}</Card>
          {footer ? <div className="text-center text-sm text-muted-foreground">{footer}</div> : null}
        </div>
      </main>
      <footer className="relative py-6 text-center text-xs text-muted-foreground">Strongroom · The legal archive for law firms</footer>
    </div>
  );
}

export const footerLinkClass = 'font-medium text-link underline-offset-4 hover:underline';
