import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { SkipNavigationButton } from 'react-admin';
import { focusList, keepFocusInPlace } from './focus';

interface Anchors {
  register: (anchor: HTMLElement) => void;
  unregister: (anchor: HTMLElement) => void;
}

const ListAnchors = createContext<Anchors | null>(null);

/**
 * Keyboard help of the signed-in shell (issue 27, item 6): on a screen with a list, "Skip to the list" is the first
 * Tab stop (before react-admin's "Skip to content") and takes the focus to the list's first row, past the menu, the
 * filters and the toolbar (47 Tab stops on the moves list); and wherever the focus would fall to <body> because what
 * had it was removed, it is put back in place (see keepFocusInPlace).
 */
export function ListFocus({ children }: { children: ReactNode }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = useRef<HTMLElement | null>(null);
  const [anchors] = useState<Anchors>(() => ({
    register: (one) => {
      current.current = one;
      setAnchor(one);
    },
    // A list leaving the screen forgets its anchor, unless another list has put its own meanwhile.
    unregister: (one) => {
      if (current.current !== one) return;
      current.current = null;
      setAnchor(null);
    },
  }));
  useEffect(() => keepFocusInPlace(() => current.current), []);
  return (
    <ListAnchors.Provider value={anchors}>
      {anchor && <SkipNavigationButton label="app.a11y.skipToList" onClick={() => focusList(anchor)} className="skip-to-list" data-testid="skip-to-list" />}
      {children}
    </ListAnchors.Provider>
  );
}

/**
 * Placed just before a list's table (or its cards, or its empty or loading state): what "Skip to the list" leads to
 * while the list is on the screen.
 */
export function ListSkipTarget() {
  const anchors = useContext(ListAnchors);
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const anchor = ref.current;
    if (!anchors || !anchor) return;
    anchors.register(anchor);
    return () => anchors.unregister(anchor);
  }, [anchors]);
  return <span ref={ref} hidden />;
}
