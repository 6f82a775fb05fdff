import { useEffect, useState } from 'react';

/** Whole seconds since `active` turned true (0 while it is false), counted once a second: what a wait has taken so far. */
export function useElapsedSeconds(active: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new wait starts from zero
    setSeconds(0);
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return active ? seconds : 0;
}
