import { useEffect, useRef } from 'react';
import { LOGIN_TEXTS } from '../i18n/login-texts';

/**
 * The login page as react-admin's loginPage (a signed-out visitor of a screen is sent there within the app): the same
 * page the signed-out /login draws without React (./login.ts).
 */
export function LoginScreen() {
  const container = useRef<HTMLDivElement>(null);
  // Loaded when shown: the signed-in console does not carry the login page's code.
  useEffect(() => {
    let takeDown: (() => void) | undefined;
    let gone = false;
    void import('./login').then(({ renderLogin }) => {
      if (!gone) takeDown = renderLogin(container.current!, LOGIN_TEXTS);
    });
    return () => {
      gone = true;
      takeDown?.();
    };
  }, []);
  return <div ref={container} />;
}
