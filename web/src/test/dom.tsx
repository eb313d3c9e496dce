import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** Queries fail at once in tests: no retries with backoff. */
function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export type Rendered = RenderResult & { client: QueryClient; user: ReturnType<typeof userEvent.setup> };

/**
 * Renders with Testing Library inside a query client (a fresh one unless given) and answers a user-event
 * session with it, so tests act the way a person does: by role, by label, by typing and clicking.
 */
export function renderWithClient(
  node: ReactNode,
  { client = testQueryClient(), ...options }: Omit<RenderOptions, 'wrapper'> & { client?: QueryClient } = {},
): Rendered {
  const user = userEvent.setup();
  const result = render(node, {
    ...options,
    wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
  });
  return { ...result, client, user };
}
