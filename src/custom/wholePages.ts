/**
 * Every row a list's filters match, read page after page (issue 54, item 3: an export that stopped at 500 rows without
 * saying so). Pure: the page is read by `readPage` (the data provider's getList in the console, which sends the
 * search's cursor when there is one, so the server reads each page from an index instead of skipping the rows before
 * it), and each page is handed to `onPage` as it comes, so that the caller keeps what it needs of it (CSV lines), not
 * the records.
 */

/** One page as the data provider answers it: its rows, the count, and whether the count is only a lower bound. */
export interface WholePage<R> {
  data: readonly R[];
  total: number;
  totalIsLowerBound?: boolean;
}

/** How far the reading is: rows read, the count the server gave, and whether that count is "more than". */
export interface WholeProgress {
  done: number;
  total: number;
  more: boolean;
}

/** A page that could not be read: which, and after how many rows (nothing read is to be presented as whole). */
export class WholePageError extends Error {
  constructor(
    readonly page: number,
    readonly done: number,
    readonly reason: unknown,
  ) {
    super(`page ${page} failed after ${done} rows`);
    this.name = 'WholePageError';
  }
}

/** More rows match than an export may hold: the user is to narrow the filters. */
export class TooManyRowsError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} rows`);
    this.name = 'TooManyRowsError';
  }
}

export interface WholeOptions<R> {
  /** Reads page `page` (from 1) of `perPage` rows. */
  readPage: (page: number, perPage: number) => Promise<WholePage<R>>;
  perPage: number;
  /** Called with each page's rows and the progress after it. */
  onPage: (rows: readonly R[], progress: WholeProgress) => void;
  /** The most rows an export holds; past it TooManyRowsError (before any page when the count says so). */
  limit: number;
  /** Checked before each page: a reading stopped (the list left) ends quietly with what was read. */
  stopped?: () => boolean;
}

/**
 * Reads every page: until a page shorter than `perPage` (the last), or as many rows as an exact count said. A count
 * that is a lower bound ("more than 10,000") is read past until the short page. Returns the rows read.
 */
export async function readWholeList<R>({ readPage, perPage, onPage, limit, stopped }: WholeOptions<R>): Promise<number> {
  let done = 0;
  for (let page = 1; ; page += 1) {
    if (stopped?.()) return done;
    let answer: WholePage<R>;
    try {
      answer = await readPage(page, perPage);
    } catch (cause) {
      throw new WholePageError(page, done, cause);
    }
    const more = answer.totalIsLowerBound === true;
    if (page === 1 && !more && answer.total > limit) throw new TooManyRowsError(limit);
    const rows = answer.data;
    if (done + rows.length > limit) throw new TooManyRowsError(limit);
    done += rows.length;
    onPage(rows, { done, total: answer.total, more });
    if (rows.length < perPage || (!more && done >= answer.total)) return done;
  }
}
