import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LoginScreen } from './custom/LoginScreen';

const root = createRoot(document.getElementById('root')!);

// The signed-out login page renders without react-admin; everything else loads the admin lazily.
if (window.location.pathname === '/login') {
  root.render(
    <StrictMode>
      <LoginScreen />
    </StrictMode>,
  );
} else {
  void import('./App').then(({ App }) =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
