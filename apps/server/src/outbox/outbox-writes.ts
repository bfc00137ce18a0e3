import { AsyncLocalStorage } from 'node:async_hooks';

/** The users an operation wrote outbox rows for, while the operation runs. */
interface WriteScope {
  users: Set<string>;
  open: boolean;
}

const currentScope = new AsyncLocalStorage<WriteScope>();

/**
 * Runs `work` noting every user it writes outbox rows for (`writeOutbox` reports them), so that the
 * delivery after its commit knows from the operation itself whether there is anything to deliver,
 * instead of asking the database on every save.
 */
export async function trackOutboxWrites<T>(work: () => Promise<T>): Promise<T> {
  const scope: WriteScope = { users: new Set(), open: true };
  try {
    return await currentScope.run(scope, work);
  } finally {
    // Anything the operation started that outlives it (a timer, a queued job) delivers as usual.
    scope.open = false;
  }
}

/** Called by `writeOutbox` with the users of the rows it writes. */
export function noteOutboxWrite(userIds: Iterable<string | null>): void {
  const scope = currentScope.getStore();
  if (!scope?.open) return;
  for (const userId of userIds) if (userId) scope.users.add(userId);
}

/**
 * False only inside a tracked operation that wrote no row for this user: its delivery after commit
 * has nothing of its own to send (rows written elsewhere are the sweep's). True everywhere else.
 */
export function mayHaveWrittenOutboxFor(userId: string): boolean {
  const scope = currentScope.getStore();
  return !scope?.open || scope.users.has(userId);
}
