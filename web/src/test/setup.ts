import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

// findBy and waitFor wait up to 5 s, not 1 s: on a busy two-core CI machine a render that takes a second is
// slow, not wrong. A test whose element never appears still fails.
configure({ asyncUtilTimeout: 5000 });

// Every test starts with an empty document: what one rendered (dialogs portal into body) never leaks into the next.
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

// A toast that closed at the end of a file removes itself 200 ms later on a timer of its own (sonner), which
// unmounting does not cancel; the file's environment stays up until that timer has run, so it never fires into
// a torn-down window.
const TOAST_REMOVAL_MS = 250;
afterAll(async () => {
  vi.useRealTimers();
  await new Promise((resolve) => setTimeout(resolve, TOAST_REMOVAL_MS));
});
