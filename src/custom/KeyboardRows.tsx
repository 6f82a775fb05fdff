import { forwardRef, type KeyboardEvent } from 'react';
import { DataTableBody, DataTableRow, useRecordContext, type DataTableBodyProps, type DataTableRowProps } from 'react-admin';

/**
 * Keyboard for a clickable table row: the row takes focus with Tab, and Enter or Space does what a click does
 * (opens the detail, unfolds the panel). Keys pressed inside the row's own controls are theirs.
 */
export function openOnKeys(open: (event: KeyboardEvent<HTMLTableRowElement>) => void) {
  return (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    open(event);
  };
}

/**
 * react-admin's row, reachable by Tab and opened with Enter or Space as with a click. It carries its record's id, so
 * that the focus finds the same record again when the row is drawn anew (src/custom/focus.ts).
 */
export const KeyboardRow = forwardRef<HTMLTableRowElement, DataTableRowProps>((props, ref) => {
  const record = useRecordContext(props);
  return <DataTableRow ref={ref} tabIndex={0} data-id={record?.id === undefined ? undefined : String(record.id)} onKeyDown={openOnKeys((event) => event.currentTarget.click())} {...props} />;
});
KeyboardRow.displayName = 'KeyboardRow';

/** DataTable's `body` for lists whose rows open something: every row a KeyboardRow. */
export function KeyboardBody(props: DataTableBodyProps) {
  return <DataTableBody {...props} row={KeyboardRow} />;
}
