import { Component, type ReactNode } from 'react';

type Props = { onError: (error: unknown) => void; children: ReactNode };

/** A viewer that throws while rendering (or whose code could not be loaded) is reported as the preview's error. */
export class PreviewErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    this.props.onError(error);
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
