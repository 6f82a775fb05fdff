import { renderLogin } from './custom/login';

const container = document.getElementById('root')!;

// The signed-out login page is drawn without React (a few KB); every other page loads the console, React included.
if (window.location.pathname === '/login') renderLogin(container);
else void import('./startApp').then(({ startApp }) => startApp(container));
