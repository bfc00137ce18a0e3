import { describe, expect, it } from 'vitest';
import { mayHaveWrittenOutboxFor, noteOutboxWrite, trackOutboxWrites } from './outbox-writes';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('tracking the outbox rows an operation writes', () => {
  it('outside a tracked operation, a delivery always looks', () => {
    expect(mayHaveWrittenOutboxFor('user-a')).toBe(true);
  });

  it('inside one, looks only for the users it wrote for, whatever runs beside it', async () => {
    const seen: Record<string, boolean[]> = { first: [], second: [] };
    await Promise.all([
      trackOutboxWrites(async () => {
        await tick();
        noteOutboxWrite(['user-a', null]);
        await tick();
        seen.first!.push(mayHaveWrittenOutboxFor('user-a'), mayHaveWrittenOutboxFor('user-b'));
      }),
      trackOutboxWrites(async () => {
        await tick();
        await tick();
        seen.second!.push(mayHaveWrittenOutboxFor('user-a'), mayHaveWrittenOutboxFor('user-b'));
      }),
    ]);
    expect(seen).toEqual({ first: [true, false], second: [false, false] });
  });

  it('what an operation leaves running after it ends looks as usual', async () => {
    let later: Promise<boolean> | undefined;
    await trackOutboxWrites(async () => {
      later = new Promise((resolve) => setTimeout(() => resolve(mayHaveWrittenOutboxFor('user-c')), 20));
    });
    expect(await later).toBe(true);
  });
});
