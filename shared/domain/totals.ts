/**
 * A list's totals row (issue 33, item 5): the declared `total` fields (shared/resources) summed over every record
 * the list's filters match, not only the page shown. Amounts of different currencies are never added together:
 * there is one line per currency, most records first. Answered by `POST <path>/totals`, shown under the list.
 */
export interface CurrencyTotals {
  /** The currency's code, as the list's rows name it (EUR, USD). */
  currency: string;
  /** How many of the matching records are in this currency. */
  count: number;
  /** Each total field's sum, rounded to the cent, as the ERP stores it (a move's `*_signed` amounts are negative for a bill). */
  sums: Record<string, number>;
}

export interface ListTotals {
  /** How many records the filters match, all currencies together (with `limited`: more than this many). */
  count: number;
  /**
   * More than `count` records match and nothing was summed (issue 54): a list's totals are bounded like its count,
   * and summed over every match only when asked (`whole: true`). `currencies` is then empty.
   */
  limited?: boolean;
  currencies: CurrencyTotals[];
  /** The states whose records the sums leave out (an order list's cancelled ones), which the row says. */
  leftOut?: string[];
}
