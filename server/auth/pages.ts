/**
 * Small server-rendered pages of the sign-in flow. The embedded issuer's form speaks the language asked for
 * (ui_locales, else the browser's, else Spanish); pages that may be reached without knowing it (a failed sign-in,
 * the logout step) say everything in both languages, the likelier one first.
 */
import { renderMessage } from '../messages';
import { escapeHtml } from '../html';

export type PageLanguage = 'es' | 'en';

/** 'en' or 'es' from a ui_locales / lang value ('en', 'en-GB es'), else from Accept-Language, else Spanish. */
export function pageLanguage(value: unknown, acceptLanguage?: string): PageLanguage {
  const first = typeof value === 'string' ? value.trim().split(/[\s,]+/)[0].toLowerCase() : '';
  if (first.startsWith('en')) return 'en';
  if (first.startsWith('es')) return 'es';
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
    failedTitle: 'No se ha podido iniciar sesión',
    failed: 'El inicio de sesión no se ha completado o ha caducado. Vuelva a intentarlo.',
    noAccount: 'No hay ninguna cuenta activa para %s en esta consola. Pida acceso a un administrador.',
    unverified: 'El proveedor de identidad no ha verificado su dirección de correo.',
    unavailable: 'El servicio de inicio de sesión no responde. Vuelva a intentarlo en unos minutos.',
    backToLogin: 'Volver a iniciar sesión',
    signingOut: 'Cerrando sesión…',
    signingOutIntro: 'Pulse Continuar para terminar de cerrar la sesión.',
    continue: 'Continuar',
    invite_unknown: 'Este enlace de invitación no es válido. Pida una nueva invitación a un administrador.',
    invite_used: 'Esta invitación ya se ha utilizado. Si ya tiene cuenta, inicie sesión sin el enlace.',
    invite_expired: 'Esta invitación ha caducado (duran 24 horas). Pida una nueva a un administrador.',
    invite_email: 'Esta invitación es para otra dirección de correo (%s no es la invitada).',
    acceptTitle: 'Aceptar la invitación',
    acceptIntro: 'Le han invitado a la consola. Escriba su nombre y elija una contraseña para su cuenta.',
    firstName: 'Nombre',
    lastName: 'Apellidos',
    newPassword: 'Contraseña nueva (8 caracteres como mínimo)',
    acceptSubmit: 'Crear mi cuenta',
    acceptMissing: 'Escriba su nombre, sus apellidos y una contraseña de 8 caracteres como mínimo.',
    acceptTooLong: 'El nombre y los apellidos admiten 100 caracteres como máximo, y la contraseña 1024.',
    acceptPublished: 'Esa contraseña es pública (la usan las cuentas de demostración). Elija otra.',
    passwordCommon: 'La contraseña es de las más usadas, y se adivina enseguida. Elija otra.',
    passwordDigits: 'La contraseña no puede tener solo cifras. Elija otra que tenga también letras o signos.',
    passwordRepeated: 'La contraseña no puede ser un mismo carácter repetido. Elija otra.',
    passwordEmail: 'La contraseña no puede ser su correo ni la parte de su correo antes de la @. Elija otra.',
    faultTitle: 'No se puede iniciar sesión ahora',
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
    failedTitle: 'Sign-in failed',
    failed: 'The sign-in did not complete or has expired. Please try again.',
    noAccount: 'There is no active account for %s in this console. Ask an administrator for access.',
    unverified: 'The identity provider has not verified your email address.',
    unavailable: 'The sign-in service is not answering. Please try again in a few minutes.',
    backToLogin: 'Back to sign-in',
    signingOut: 'Signing out…',
    signingOutIntro: 'Press Continue to finish signing out.',
    continue: 'Continue',
    invite_unknown: 'This invitation link is not valid. Ask an administrator for a new invitation.',
    invite_used: 'This invitation has already been used. If you already have an account, sign in without the link.',
    invite_expired: 'This invitation has expired (they last 24 hours). Ask an administrator for a new one.',
    invite_email: 'This invitation is for another email address (%s is not the one invited).',
    acceptTitle: 'Accept the invitation',
    acceptIntro: 'You have been invited to the console. Enter your name and choose a password for your account.',
    firstName: 'First name',
    lastName: 'Last name',
    newPassword: 'New password (at least 8 characters)',
    acceptSubmit: 'Create my account',
    acceptMissing: 'Enter your first name, your last name and a password of at least 8 characters.',
    acceptTooLong: 'First and last names take at most 100 characters, and the password 1024.',
    acceptPublished: 'That password is public (the demo accounts use it). Choose another.',
    passwordCommon: 'The password is one of the most used ones, and is guessed at once. Choose another.',
    passwordDigits: 'The password cannot be only digits. Choose one with letters or signs too.',
    passwordRepeated: 'The password cannot be one character repeated. Choose another.',
    passwordEmail: 'The password cannot be your email address or the part of it before the @. Choose another.',
    faultTitle: 'Signing in is not possible now',
  },
} as const;

export type Texts = (typeof TEXTS)[PageLanguage];
export type MessageKey = 'failed' | 'inactive' | 'noAccount' | 'unverified' | 'unavailable' | 'invite_unknown' | 'invite_used' | 'invite_expired' | 'invite_email';

const other = (language: PageLanguage): PageLanguage => (language === 'es' ? 'en' : 'es');

const STYLE = `body{margin:0;font-family:Roboto,"Segoe UI",system-ui,sans-serif;background:linear-gradient(160deg,#1f4e79 0%,#2f6ea5 45%,#f5f6f8 45%);min-height:100vh;display:grid;place-items:center}
main{background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.15);padding:36px 32px;width:100%;max-width:380px;box-sizing:border-box}
h1{font-size:22px;font-weight:500;margin:12px 0 8px}h2{font-size:17px;font-weight:500;margin:0 0 6px}p{color:#555;line-height:1.4}
label{display:block;font-size:14px;margin:16px 0 6px;color:#333}
input{width:100%;box-sizing:border-box;padding:10px 12px;font-size:15px;border:1px solid #bbb;border-radius:6px}
button,.button{margin-top:20px;width:100%;padding:11px;border:0;border-radius:6px;background:#1f4e79;color:#fff;font-size:15px;cursor:pointer;display:inline-block;text-align:center;text-decoration:none;box-sizing:border-box}
.error{background:#fdecea;color:#611a15;padding:10px 12px;border-radius:6px;margin-top:12px}
.second{border-top:1px solid #ddd;margin-top:24px;padding-top:16px}.second a{color:#1f4e79}`;

export function page(language: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Backoffice</title><link rel="icon" href="/logo.svg"><style>${STYLE}</style></head>
<body><main><img src="/logo.svg" alt="" width="48" height="48">${body}</main></body></html>`;
}

/** The embedded issuer's sign-in form, in one language; whatever it echoes is escaped. */
export function loginPage(language: PageLanguage, action: string, options: { email?: string; error?: string } = {}): string {
  const t = TEXTS[language];
  return page(
    language,
    t.signInTitle,
    `<h1>${t.signInTitle}</h1><p>${t.signInIntro}</p>
${options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" autocomplete="on">
<label for="email">${t.email}</label><input id="email" name="email" type="email" autocomplete="username" maxlength="320" required autofocus value="${escapeHtml(options.email ?? '')}">
<label for="password">${t.password}</label><input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required>
<button type="submit">${t.submit}</button></form>`,
  );
}

/**
 * The embedded issuer's page for an invitee: the invited address (fixed), their name and a new password. `error` is
 * said above the form; `passwordError` (the password refused, issue 54) under the password field, tied to it.
 */
export function acceptPage(language: PageLanguage, action: string, options: { email: string; firstName?: string; lastName?: string; error?: string; passwordError?: string }): string {
  const t = TEXTS[language];
  const passwordError = options.passwordError
    ? ` aria-invalid="true" aria-describedby="password-error"><div class="error" id="password-error" role="alert">${escapeHtml(options.passwordError)}</div>`
    : '>';
  return page(
    language,
    t.acceptTitle,
    `<h1>${t.acceptTitle}</h1><p>${t.acceptIntro}</p>
${options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" autocomplete="on">
<label for="email">${t.email}</label><input id="email" name="email" type="email" value="${escapeHtml(options.email)}" readonly>
<label for="firstName">${t.firstName}</label><input id="firstName" name="firstName" autocomplete="given-name" maxlength="100" required autofocus value="${escapeHtml(options.firstName ?? '')}">
<label for="lastName">${t.lastName}</label><input id="lastName" name="lastName" autocomplete="family-name" maxlength="100" required value="${escapeHtml(options.lastName ?? '')}">
<label for="password">${t.newPassword}</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="1024" required${passwordError}
<button type="submit">${t.acceptSubmit}</button></form>`,
  );
}

/**
 * Why a sign-in did not happen, in both languages (the likelier first), with the way back to the login page.
 * `value` fills the message's %s; `detail` (an error code) is appended as is, escaped.
 */
export function messagePage(language: PageLanguage, key: MessageKey, options: { value?: string; detail?: string } = {}): string {
  const text = (t: Texts) => escapeHtml(t[key].replace('%s', options.value ?? '')) + (options.detail ? ` (${escapeHtml(options.detail)})` : '');
  const first = TEXTS[language];
  const second = TEXTS[other(language)];
  return page(
    language,
    first.failedTitle,
    `<h1>${escapeHtml(first.failedTitle)}</h1><p role="alert">${text(first)}</p><a class="button" href="/login">${first.backToLogin}</a>
<section class="second" lang="${other(language)}"><h2>${escapeHtml(second.failedTitle)}</h2><p>${text(second)}</p><a href="/login">${second.backToLogin}</a></section>`,
  );
}

/**
 * The sign-in pages' answer while the server's database is away or its disk full (server/db/faults.ts): the API's own
 * texts (server/messages.ts), in both languages, the likelier first, and nothing of the error itself.
 */
export function faultPage(language: PageLanguage, key: 'db.unavailable' | 'db.readOnly' | 'db.diskFull'): string {
  const first = TEXTS[language];
  const second = TEXTS[other(language)];
  return page(
    language,
    first.faultTitle,
    `<h1>${escapeHtml(first.faultTitle)}</h1><p role="alert">${escapeHtml(renderMessage(language, key))}</p><a class="button" href="/login">${first.backToLogin}</a>
<section class="second" lang="${other(language)}"><h2>${escapeHtml(second.faultTitle)}</h2><p>${escapeHtml(renderMessage(other(language), key))}</p><a href="/login">${second.backToLogin}</a></section>`,
  );
}

/**
 * The embedded issuer's logout step: oidc-provider's confirmation form (`form`, holding its xsrf token) submitted by
 * itself, since the console already asked to sign out; without JavaScript, one button, explained in both languages.
 */
/** The sign-out page's one script (it confirms the sign-out by itself): allowed by its hash in the CSP (server/security.ts). */
export const LOGOUT_SCRIPT = "(function(){var f=document.getElementById('op.logoutForm');var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();})();";

export function logoutPage(language: PageLanguage, form: string): string {
  const first = TEXTS[language];
  const second = TEXTS[other(language)];
  return page(
    language,
    first.signingOut,
    `<h1>${first.signingOut}</h1>${form}
<noscript><p>${first.signingOutIntro}</p><p lang="${other(language)}">${second.signingOutIntro}</p></noscript>
<button type="submit" form="op.logoutForm" name="logout" value="yes">${first.continue} · <span lang="${other(language)}">${second.continue}</span></button>
<script>${LOGOUT_SCRIPT}</script>`,
  );
}
