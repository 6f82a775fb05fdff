/**
 * What makes a chosen password too weak (issue 54): the invitation form (the embedded issuer's acceptance page, the
 * only place a password is chosen) refuses `12345678`. At least MIN_PASSWORD_LENGTH characters, as before; not one of
 * the most common passwords (COMMON_PASSWORDS, compared without case); not only digits; not one character repeated;
 * not the e-mail address or its local part.
 */
export const MIN_PASSWORD_LENGTH = 8;

export type PasswordFault = 'short' | 'common' | 'digits' | 'repeated' | 'email';

/** The most used passwords of leaked lists (and their Spanish favourites), lower case. */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456', '123456789', '12345678', '1234567890', '12345', '1234567', '123123', '111111', '000000', '1234',
  'password', 'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa$$word', 'passpass', 'password!',
  'qwerty', 'qwerty123', 'qwertyui', 'qwertyuiop', 'qwerty12', 'qwerty1234', 'asdfghjk', 'asdfghjkl', 'zxcvbnm1', 'zxcvbnma',
  '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx', 'q1w2e3r4', 'qazwsxedc', 'zaq12wsx', 'abcd1234', 'abc12345', 'abcdefgh', 'abcdef12',
  'iloveyou', 'iloveyou1', 'sunshine', 'princess', 'football', 'baseball', 'superman', 'batman123', 'starwars', 'pokemon1',
  'welcome', 'welcome1', 'welcome123', 'letmein1', 'letmein123', 'trustno1', 'whatever', 'jennifer', 'michelle', 'computer',
  'dragon12', 'master12', 'mustang1', 'shadow12', 'monkey12', 'charlie1', 'liverpool', 'chelsea1', 'internet', 'samsung1',
  'admin123', 'administrator', 'root1234', 'changeme', 'default1', 'secret12', 'test1234', 'testtest', 'guest123', 'login123',
  'contraseña', 'contrasena', 'contraseña1', 'contrasena1', 'contraseña123', 'contrasena123', 'tequiero', 'teamo123', 'barcelona', 'realmadrid',
  'madrid123', 'espana123', 'españa123', 'futbol123', 'bienvenido', 'bienvenido1', 'hola1234', 'holahola', 'micontraseña', 'clave123',
  '87654321', '11223344', '12341234', '12121212', '123qweasd', '1234qwer', 'qwer1234', 'asdf1234', 'zxcv1234', 'aa123456',
]);

/** The first reason `password` is too weak for the account of `email`, or undefined when it will do. */
export function passwordFault(password: string, email = ''): PasswordFault | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'short';
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return 'common';
  if (/^\d+$/.test(password)) return 'digits';
  if (new Set(lower).size === 1) return 'repeated';
  const address = email.trim().toLowerCase();
  const local = address.split('@')[0];
  if (address && (lower === address || lower === local)) return 'email';
  return undefined;
}
