import { useEffect, useRef } from 'react';
import { useNotify } from 'react-admin';
import { COMPANIES_LEFT_OUT_EVENT } from '../providers/http';

/** How long the same warning stays quiet after it was shown: every list of a session would otherwise repeat it. */
const QUIET_MS = 5 * 60_000;

/**
 * Warns when an answer left out companies of the user's that the ERP does not give the server (issue 28): the list
 * shows the other companies' records, and the user is told which company is missing and that their administrator
 * fixes it, instead of a list that looks complete.
 */
export function CompaniesLeftOut() {
  const notify = useNotify();
  const shown = useRef<{ companies: string; at: number } | null>(null);
  useEffect(() => {
    const warn = (event: Event) => {
      const ids = (event as CustomEvent<number[]>).detail ?? [];
      const companies = ids.join(', ');
      const last = shown.current;
      if (last && last.companies === companies && Date.now() - last.at < QUIET_MS) return;
      shown.current = { companies, at: Date.now() };
      notify('app.errors.companiesLeftOut', { type: 'warning', messageArgs: { companies, smart_count: ids.length }, autoHideDuration: 10_000 });
    };
    window.addEventListener(COMPANIES_LEFT_OUT_EVENT, warn);
    return () => window.removeEventListener(COMPANIES_LEFT_OUT_EVENT, warn);
  }, [notify]);
  return null;
}
