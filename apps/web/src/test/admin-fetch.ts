import { afterEach, beforeEach, vi } from 'vitest';
import { saveCsrfToken, saveSessionToken } from '../lib/session-storage';
import { fakeSessionToken } from './test-utils';

type Answer = (input: string, init?: RequestInit) => Promise<Response>;
type FetchMock = ReturnType<typeof vi.fn<Answer>>;

/**
 * The back office's page tests: before each test of the file, `fetch` stubbed with a fresh mock (that
 * gives `answer`'s responses, if given) and an admin's session and CSRF token saved; after it,
 * everything restored. Answers a reader of the current test's mock.
 */
export function stubAdminFetch(answer?: Answer): () => FetchMock {
  let fetchMock: FetchMock;
  beforeEach(() => {
    fetchMock = answer ? vi.fn<Answer>(answer) : vi.fn<Answer>();
    vi.stubGlobal('fetch', fetchMock);
    saveSessionToken(fakeSessionToken('admin-1'));
    saveCsrfToken('csrf-1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return () => fetchMock;
}
