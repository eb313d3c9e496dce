import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Every test starts with an empty document: what one rendered (dialogs portal into body) never leaks into the next.
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});
