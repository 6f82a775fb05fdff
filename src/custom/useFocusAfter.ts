import { useCallback, useEffect, useRef } from 'react';
import { focusWhenReady, type FocusTarget } from './focus';

/**
 * Focus after an action (issue 27, item 6): `focusAfter(target)` puts the focus on `target` (a ref, or a function that
 * finds the element) once it is in the page and enabled, e.g. the first field to fill again after a form is sent and
 * reset, instead of leaving it on <body> (where a disabled Send button drops it). Nothing happens if the user has put
 * the focus elsewhere meanwhile; a new call replaces the one waiting, and leaving the screen cancels it.
 */
export function useFocusAfter(within = 5000): (target: FocusTarget) => void {
  const cancel = useRef<(() => void) | null>(null);
  useEffect(() => () => cancel.current?.(), []);
  return useCallback(
    (target: FocusTarget) => {
      cancel.current?.();
      cancel.current = focusWhenReady(target, within);
    },
    [within],
  );
}
