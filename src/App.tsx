import { QueryClient } from '@tanstack/react-query';
import { Admin, CustomRoutes, memoryStore } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { AREAS, LEGACY_REDIRECTS } from '../shared/domain/areas';
import { AppLayout, storedMenuCollapsed } from './custom/AppLayout';
import { AreaRoute } from './custom/AreaRoute';
import { CallbackPage } from './custom/CallbackPage';
import { Home } from './custom/Home';
import { LoginScreen } from './custom/LoginScreen';
import { SignOutPage } from './custom/SignOutPage';
import { theme } from './custom/theme';
import { buildAuthProvider } from './providers/authProvider';
import { buildI18nProvider } from './providers/i18nProvider';
import { dataProvider } from './providers/dataProvider';
import { MoveList } from './resources/moves/MoveList';
import { MovePage } from './resources/moves/MovePage';
import { ValidationPage } from './resources/moves/ValidationPage';
import { ContactList } from './resources/contacts/ContactList';
import { ContactPage } from './resources/contacts/ContactPage';
import { OrderList } from './resources/orders/OrderList';
import { PaymentReportPage } from './resources/reports/PaymentReportPage';
import { UsersPage } from './resources/users/UsersPage';
import { OrderPage } from './resources/orders/OrderPage';
import type { AreaId } from '../shared/domain/areas';
import type { ComponentType } from 'react';

const authProvider = buildAuthProvider();
const i18nProvider = buildI18nProvider();
// Only what the spec lists is kept in local storage (token, lang_preference, menu flag, per-screen choices);
// react-admin's own preferences live for the page's lifetime.
const store = memoryStore(storedMenuCollapsed() ? { 'sidebar.open': false } : {});

// A refused session (401) or permission (403) is final: retrying only delays the way to the login page.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => {
        const status = (error as { status?: number })?.status;
        return status !== 401 && status !== 403 && failures < 3;
      },
    },
  },
});

/** One screen per area of the spec (the type makes a missing one a compile error). */
const SCREENS: Record<AreaId, ComponentType> = {
  movesList: MoveList,
  move: MovePage,
  validation: ValidationPage,
  order: OrderPage,
  orderList: OrderList,
  contact: ContactPage,
  contactList: ContactList,
  paymentsReport: PaymentReportPage,
  permissionsManagement: UsersPage,
};

function GoHome() {
  return <Navigate to="/" replace />;
}

export function App() {
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
      layout={AppLayout}
      loginPage={LoginScreen}
      dashboard={Home}
      catchAll={GoHome}
      title="Backoffice"
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/callback" element={<CallbackPage signIn={authProvider.signInWithToken} />} />
        <Route path="/sign-out" element={<SignOutPage />} />
        {Object.entries(LEGACY_REDIRECTS).map(([from, to]) => (
          <Route key={from} path={from} element={<Navigate to={to} replace />} />
        ))}
      </CustomRoutes>
      <CustomRoutes>
        {AREAS.map((area) => {
          const Screen = SCREENS[area.id];
          return (
            <Route
              key={area.id}
              path={area.path}
              element={
                <AreaRoute area={area}>
                  <Screen />
                </AreaRoute>
              }
            />
          );
        })}
      </CustomRoutes>
    </Admin>
    </BrowserRouter>
  );
}
