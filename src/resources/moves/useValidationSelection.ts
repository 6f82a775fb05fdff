import { useCallback, useState } from 'react';
import { toggled, withoutDecided } from './validationHelpers';
import type { QueueMove } from './validationQueue';

/** The rows selected for a decision together; the callbacks are stable, so the memoised rows are not drawn again. */
export function useValidationSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const onSelect = useCallback((move: QueueMove, on: boolean) => setSelected((current) => toggled(current, move, on)), []);
  const clear = useCallback(() => setSelected(new Set()), []);
  const forget = useCallback((decided: QueueMove[]) => setSelected((current) => withoutDecided(current, decided)), []);
  const selectAll = (moves: QueueMove[], on: boolean) => setSelected(on ? new Set(moves.map((move) => move.id)) : new Set());
  return { selected, onSelect, clear, forget, selectAll };
}

export type ValidationSelection = ReturnType<typeof useValidationSelection>;
