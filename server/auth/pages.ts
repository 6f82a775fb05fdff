/** Small server-rendered pages of the sign-in flow, in Spanish or English. */

export type PageLanguage = 'es' | 'en';

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

export function pageLanguage(value: unknown, acceptLanguage?: string): PageLanguage {
  const first = typeof value === 'string' ? value.split(/[\s,]+/)[0] : '';
  if (first?.toLowerCase().startsWith('en')) return 'en';
  if (first?.toLowerCase().startsWith('es')) return 'es';
  return acceptLanguage?.trim().toLowerCase().startsWith('en') ? 'en' : 'es';
}

export const TEXTS = {
  es: {
    signInTitle: 'Iniciar sesión',
    signInIntro: 'Entre con el correo y la contraseña de su cuenta de empresa.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Entrar',
    badCredentials: 'El correo o la contraseña no son correctos.',
    inactive: 'Esta cuenta está desactivada. Pida ayuda a un administrador.',
    missing: 'Escriba su correo y su contraseña.',
    noAccountTitle: 'No se ha podido iniciar sesión',
    noAccount: 'No hay ninguna cuenta activa para %s en esta consola. Pida acceso a un administrador.',
    failedTitle: 'No se ha podido iniciar sesión',
    failed: 'El inicio de sesión no se ha completado o ha caducado. Vuelva a intentarlo.',
    backToLogin: 'Volver a iniciar sesión',
    signingOut: 'Cerrando sesión…',
    continue: 'Continuar',
  },
  en: {
    signInTitle: 'Sign in',
    signInIntro: 'Use the email and password of your company account.',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    badCredentials: 'The email or the password is not correct.',
    inactive: 'This account is deactivated. Ask an administrator for help.',
    missing: 'Enter your email and your password.',
    noAccountTitle: 'Sign-in failed',
    noAccount: 'There is no active account for %s in this console. Ask an administrator for access.',
    failedTitle: 'Sign-in failed',
    failed: 'The sign-in did not complete or has expired. Please try again.',
    backToLogin: 'Back to sign-in',
    signingOut: 'Signing out…',
    continue: 'Continue',
  },
} as const;

const STYLE = `body{margin:0;font-family:Roboto,"Segoe UI",system-ui,sans-serif;background:linear-gradient(160deg,#1f4e79 0%,#2f6ea5 45%,#f5f6f8 45%);min-height:100vh;display:grid;place-items:center}
main{background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.15);padding:36px 32px;width:100%;max-width:360px;box-sizing:border-box}
h1{font-size:22px;font-weight:500;margin:12px 0 8px}p{color:#555;line-height:1.4}label{display:block;font-size:14px;margin:16px 0 6px;color:#333}
input{width:100%;box-sizing:border-box;padding:10px 12px;font-size:15px;border:1px solid #bbb;border-radius:6px}
button,.button{margin-top:20px;width:100%;padding:11px;border:0;border-radius:6px;background:#1f4e79;color:#fff;font-size:15px;cursor:pointer;display:inline-block;text-align:center;text-decoration:none;box-sizing:border-box}
.error{background:#fdecea;color:#611a15;padding:10px 12px;border-radius:6px;margin-top:12px}`;

export function page(language: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Backoffice</title><link rel="icon" href="/logo.svg"><style>${STYLE}</style></head>
<body><main><img src="/logo.svg" alt="" width="48" height="48">${body}</main></body></html>`;
}

export function loginPage(language: PageLanguage, action: string, options: { email?: string; error?: string } = {}): string {
  const t = TEXTS[language];
  return page(
    language,
    t.signInTitle,
    `<h1>${t.signInTitle}</h1><p>${t.signInIntro}</p>
${options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" autocomplete="on">
<label for="email">${t.email}</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
<label for="password">${t.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${t.submit}</button></form>`,
  );
}

export function messagePage(language: PageLanguage, title: string, message: string): string {
  return page(language, title, `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p><a class="button" href="/login">${TEXTS[language].backToLogin}</a>`);
}
