/**
 * One promise chain per key: the callers of one key run one after the other, in order, in this process. Used where
 * two requests of one thing must not interleave: edits of one record (erp/versions.ts), sends of one submission
 * (services/move-create.ts).
 */
export class KeyedMutex {
  private readonly tails = new Map<string, { tail: Promise<unknown>; holders: number }>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const entry = this.tails.get(key) ?? { tail: Promise.resolve(), holders: 0 };
    const mine = entry.tail.catch(() => undefined).then(fn);
    entry.tail = mine.catch(() => undefined);
    entry.holders += 1;
    this.tails.set(key, entry);
    try {
      return await mine;
    } finally {
      entry.holders -= 1;
      if (entry.holders === 0 && this.tails.get(key) === entry) this.tails.delete(key);
    }
  }

  /** How many callers of `key` are running or waiting their turn. */
  holders(key: string): number {
    return this.tails.get(key)?.holders ?? 0;
  }
}
