import type { ReactNode } from 'react';

/** One section of the Help page: its anchor (the address's #fragment), its heading and its text. */
export type HelpSection = { id: string; title: string; body: ReactNode };
