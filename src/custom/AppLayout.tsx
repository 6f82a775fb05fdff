import { useEffect, useRef, type ReactNode } from 'react';
import { Layout, useSidebarState, useTheme } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { getToken } from '../providers/http';
import { STORAGE_KEYS } from '../../shared/domain/constants';
import { Header } from './Header';
import { SideMenu } from './SideMenu';
import { MuiLocale } from './muiLocale';
import { ListFocus } from './SkipToList';
import { CompaniesLeftOut } from './CompaniesLeftOut';

export function storedMenuCollapsed(storage: Storage = localStorage): boolean {
  return storage.getItem(STORAGE_KEYS.menuCollapsed) === 'true';
}

/** The light/dark choice remembered from an earlier visit, if any. */
export function storedTheme(storage: Storage = localStorage): 'light' | 'dark' | undefined {
  const value = storage.getItem(STORAGE_KEYS.theme);
  return value === 'light' || value === 'dark' ? value : undefined;
}

/**
 * Writes a choice to local storage when the user changes it: the first value is the one restored at start, so only
 * the user's own toggles are written (react-admin's store lives in memory here).
 */
function useRemembered<T>(value: T, key: string, text: (value: T) => string | null) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const stored = text(value);
    if (stored !== null) localStorage.setItem(key, stored);
  }, [value, key, text]);
}

const themeText = (mode: unknown) => (mode === 'light' || mode === 'dark' ? mode : null);
const collapsedText = (open: boolean) => String(!open);

/** The app bar's light/dark choice (issue 16) and the side menu's collapsed flag (spec section 2, shell). */
function PersistChoices() {
  const [mode] = useTheme();
  const [open] = useSidebarState();
  useRemembered(mode, STORAGE_KEYS.theme, themeText);
  useRemembered(open, STORAGE_KEYS.menuCollapsed, collapsedText);
  return null;
}

/**
 * The signed-in shell. A visitor without a session is sent to /login here, synchronously, before any screen asks
 * the server anything (react-admin's own check-then-logout cycle can loop while the router transition is pending).
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!getToken()) return <Navigate to="/login" replace state={{ nextPathname: location.pathname }} />;
  return (
    <MuiLocale>
      <ListFocus>
        <Layout appBar={Header} menu={SideMenu} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
          <PersistChoices />
          <CompaniesLeftOut />
          {children}
        </Layout>
      </ListFocus>
    </MuiLocale>
  );
}
