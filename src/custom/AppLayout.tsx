import { useEffect, useRef, type ReactNode } from 'react';
import { Layout, useSidebarState, useTheme } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { getToken } from '../providers/http';
import { STORAGE_KEYS } from '../../shared/domain/constants';
import { Header } from './Header';
import { SideMenu } from './SideMenu';

export function storedMenuCollapsed(storage: Storage = localStorage): boolean {
  return storage.getItem(STORAGE_KEYS.menuCollapsed) === 'true';
}

/** The light/dark choice remembered from an earlier visit, if any. */
export function storedTheme(storage: Storage = localStorage): 'light' | 'dark' | undefined {
  const value = storage.getItem(STORAGE_KEYS.theme);
  return value === 'light' || value === 'dark' ? value : undefined;
}

/** Keeps the app bar's light/dark choice in local storage (react-admin keeps it in its store, here in memory). */
function PersistTheme() {
  const [mode] = useTheme();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (mode === 'light' || mode === 'dark') localStorage.setItem(STORAGE_KEYS.theme, mode);
  }, [mode]);
  return null;
}

/** Keeps the side menu's collapsed flag in local storage (spec section 2, shell). */
function PersistSidebar() {
  const [open] = useSidebarState();
  const first = useRef(true);
  useEffect(() => {
    // The first value is the one restored at start; only the user's toggles are written.
    if (first.current) {
      first.current = false;
      return;
    }
    localStorage.setItem(STORAGE_KEYS.menuCollapsed, String(!open));
  }, [open]);
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
    <Layout appBar={Header} menu={SideMenu} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
      <PersistSidebar />
      <PersistTheme />
      {children}
    </Layout>
  );
}
