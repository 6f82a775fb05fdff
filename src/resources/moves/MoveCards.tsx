import { SimpleList, useTranslate } from 'react-admin';
import { formatDay } from '../../../shared/domain/format';
import { CARD_LIST_SX, CardLine } from '../../custom/CardLine';
import { ListEmpty } from '../../custom/ListProblem';
import type { ListedMove } from './moveTypes';
import { Money, second } from './moveCells';
import { moveNumber } from './number';

/** Phones: one card per move (number, total, provider, date, company, state); a card opens the move as a row does. */
export function MoveCards({ onOpen }: { onOpen: (move: ListedMove) => void }) {
  const translate = useTranslate();
  return (
    <SimpleList
      data-testid="move-cards"
      sx={CARD_LIST_SX}
      empty={<ListEmpty />}
      rowClick={(_id, _resource, record) => {
        onOpen(record as unknown as ListedMove);
        return false;
      }}
      primaryText={(record) => <span data-testid="card-title">{moveNumber(record.name, translate)}</span>}
      tertiaryText={(record) => <span data-testid="card-amount"><Money record={record} source="amount_total_signed" /></span>}
      secondaryText={(record) => (
        <>
          <CardLine testId="card-party">{second(record.partner_id) || '-'}{record.ref ? ` · ${record.ref}` : ''}</CardLine>
          <CardLine>
            {formatDay(record.date)} · {second(record.company_id)} · <span data-testid="card-state">{translate(`app.moves.states.${record.state}`)}</span>
          </CardLine>
        </>
      )}
    />
  );
}

