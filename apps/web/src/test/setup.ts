import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { loadDeferredComponents } from '../lib/deferred-component';

// Components that a prerendered page loads only once it is interactive render here with their code
// already loaded, as a customer sees them a moment after the page opened.
beforeAll(() => loadDeferredComponents());

afterEach(() => {
  cleanup();
  localStorage.clear();
});
