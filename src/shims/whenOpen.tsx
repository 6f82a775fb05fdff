/**
 * A component that draws nothing until it is first open, loaded then (the stand-ins of MUI's Popper, Dialog and
 * Snackbar, see each): MUI's Popper, Dialog and Snackbar render nothing while closed (unless kept mounted), so
 * rendering nothing until the first opening and the real component from then on (closing transition included) is
 * what they show, without their code in a page's first load.
 */
import { lazy, Suspense, useRef, type ComponentType } from 'react';

interface Openable {
  open?: boolean;
  keepMounted?: boolean;
}

export function whenOpen<P extends Openable>(load: () => Promise<{ default: ComponentType<P> }>, name: string) {
  const Real = lazy(load);
  // React 19 hands a function component its ref among the props: passing them on gives the real one its ref.
  function Late(props: P) {
    const shown = useRef(false);
    if (props.open || props.keepMounted) shown.current = true;
    if (!shown.current) return null;
    return (
      <Suspense fallback={null}>
        <Real {...props} />
      </Suspense>
    );
  }
  Late.displayName = name;
  return Late;
}
