import { useEffect, useRef } from 'react';
import { renderLogin } from './login';

/**
 * The login page as react-admin's loginPage (a signed-out visitor of a screen is sent there within the app): the same
 * page the signed-out /login draws without React (./login.ts).
 */
export function LoginScreen() {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => renderLogin(container.current!), []);
  return <div ref={container} />;
}
