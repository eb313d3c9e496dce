import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorState } from '@/components/ui/error-state';

type Props = { children: ReactNode; /** Changing it (e.g. the path) clears a caught error. */ resetKey?: string };
type State = { error: unknown };

/**
 * Catches a page that failed to load or render (often a stale chunk after a deployment) and offers a reload
 * instead of a blank screen.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidUpdate(prev: Props): void {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    if (import.meta.env.DEV) console.error(error, info.componentStack);
  }

  render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="flex min-h-[60dvh] items-center justify-center px-4">
        <ErrorState
          titleAs="h1"
          title="This page could not be loaded"
          message="Strongroom may have been updated since you opened it. Reload the page to continue."
          onRetry={() => window.location.reload()}
          retryLabel="Reload"
        />
      </div>
    );
  }
}
