import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import { VISUALLY_HIDDEN } from './validationHelpers';
import { QueueCards, QueueTable, type QueueViewProps } from './ValidationTable';

/** What the rows do, whatever rows are drawn; `phone` draws cards instead of a table. */
export type ValidationRowsProps = Omit<QueueViewProps, 'moves' | 'skeletons'> & { phone: boolean };

/** The queue's rows (a table, or cards on a phone), or skeleton rows while it is read, said to a screen reader. */
export function ValidationRows({ phone, moves, skeletons, ...rows }: ValidationRowsProps & Pick<QueueViewProps, 'moves' | 'skeletons'>) {
  const translate = useTranslate();
  const View = phone ? QueueCards : QueueTable;
  return (
    <>
      <View moves={moves} skeletons={skeletons} {...rows} />
      {/* The skeleton says nothing to a screen reader: this does. */}
      {skeletons ? <Box component="span" role="status" sx={VISUALLY_HIDDEN}>{translate('ra.page.loading')}</Box> : null}
    </>
  );
}
