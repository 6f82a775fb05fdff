import { QueryClient } from '@tanstack/react-query';
import { Admin, CustomRoutes, memoryStore, type I18nProvider } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { AppLayout, storedMenuCollapsed, storedTheme } from './custom/AppLayout';
import { AppNotification } from './custom/AppNotification';
import { CallbackPage } from './custom/CallbackPage';
import { Home } from './custom/Home';
import { PatientLoading } from './custom/PatientLoading';
import { LoginScreen } from './custom/LoginScreen';
import { SignOutPage } from './custom/SignOutPage';
import { darkTheme, theme } from './custom/theme';
import { buildAuthProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { QUERY_DEFAULTS } from './providers/queryDefaults';
import { bespokeFrom } from './resources/generic/offer';
import { adminChildren } from './custom/adminChildren';
import { storedColumnChoices } from './custom/columnChoices';

const authProvider = buildAuthProvider();
// Only what the spec lists is kept in local storage (token, lang_preference, menu flag, per-screen choices) and the
// light/dark choice and each list's columns (issue 16); react-admin's other preferences live for the page's lifetime.
const store = memoryStore({
  ...(storedMenuCollapsed() ? { 'sidebar.open': false } : {}),
  ...(storedTheme() ? { theme: storedTheme() } : {}),
  ...storedColumnChoices(),
});

// How failed reads are asked again, and never held paused offline: src/providers/queryDefaults.ts.
const queryClient = new QueryClient({ defaultOptions: QUERY_DEFAULTS });

/**
 * Each resource folder's views (`src/resources/<name>/index.ts`, keyed by folder name = resource name); a declared
 * resource without a folder gets the generic views its declaration allows.
 */
export const BESPOKE_VIEWS = bespokeFrom(import.meta.glob('./resources/*/index.ts', { eager: true }));

function GoHome() {
  return <Navigate to="/" replace />;
}

/** The console; its translations start in the user's language (src/startApp.tsx loads that catalogue first). */
export function App({ i18nProvider }: { i18nProvider: I18nProvider }) {
  // The spec's routes are real paths (/moves-list, /login...), so react-admin runs in a browser router.
  return (
    <BrowserRouter>
    <Admin
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      store={store}
      queryClient={queryClient}
      theme={theme}
      darkTheme={darkTheme}
      layout={AppLayout}
      notification={AppNotification}
      loginPage={LoginScreen}
      dashboard={Home}
      loading={PatientLoading}
      catchAll={GoHome}
      title="Backoffice"
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/callback" element={<CallbackPage signIn={authProvider.signInWithToken} />} />
        <Route path="/sign-out" element={<SignOutPage />} />
      </CustomRoutes>
      {adminChildren(BESPOKE_VIEWS)}
    </Admin>
    </BrowserRouter>
  );
}
