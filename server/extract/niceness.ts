import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Readers and attachment processes yield the processor to the server: each of the process's threads (Linux counts
 * niceness per thread; the threads started later, OCR's and sharp's, inherit it from their parent) runs at a lower
 * priority, so a document read or a photo resized on every core still leaves the server's requests their turn.
 */
export const READER_NICENESS = 10;

export function yieldProcessor(): void {
  let threads: number[] = [0];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: the process's priority only.
  }
  for (const thread of threads) {
    try {
      setPriority(thread, READER_NICENESS);
    } catch {
      // A thread that has ended, or a system that refuses: the process still works.
    }
  }
}
