/**
 * react-admin's own login page and form as the built console uses them (scripts/stand-ins.ts puts this in their
 * place for the build): never, since the console gives react-admin its own login page (src/custom/LoginScreen.tsx,
 * the page drawn without React). react-admin imports its default anyway, a form with its inputs that every page
 * would load for nothing. These stand-ins say so if they are ever drawn.
 */
function notInBuild(name: string): never {
  throw new Error(`${name}: the console draws its own login page (src/custom/login.ts); react-admin's is not in the build (src/shims/ra-login.ts)`);
}

export const Login = () => notInBuild('Login');
export const LoginForm = () => notInBuild('LoginForm');
export const LoginClasses = {};
export const LoginFormClasses = {};
