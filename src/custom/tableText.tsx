import type { ReactNode } from 'react';

/**
 * The sx of a list's table that fits a 1280 px screen: headers and the names (`wrapping`: the columns' sources) wrap
 * between words, never inside one; numbers, dates, amounts and states stay on one line; what still does not fit
 * scrolls sideways inside the table, the filters staying in view.
 */
export function fittingTable(wrapping: readonly string[]) {
  const names = wrapping.map((source) => `& td.column-${source}`).join(', ');
  return {
    '& td, & th': { px: 1 },
    '& td': { whiteSpace: 'nowrap' },
    [`& th, ${names}`]: { whiteSpace: 'normal', overflowWrap: 'break-word', minWidth: '6em' },
    '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
  } as const;
}

/** An e-mail address that may break after its "@" when its column is narrow ("sales@" over "demo.example"). */
export function breakableEmail(address: string): ReactNode {
  const at = address.indexOf('@');
  if (at < 0) return address;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}
