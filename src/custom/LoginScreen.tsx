import { useEffect, useState, type CSSProperties } from 'react';
import { LANGUAGES, STORAGE_KEYS, type Language } from '../../shared/domain/constants';
import { appEn } from '../i18n/app-en';
import { appEs } from '../i18n/app-es';
import { initialLanguage, storeLanguage } from '../i18n/language';

const TEXTS = { en: appEn.app, es: appEs.app } as const;

/** The address of the sign-in button: the backend's /auth/, carrying inviteToken and the language. */
export function signInUrl(search: string, language: Language): string {
  const params = new URLSearchParams();
  const inviteToken = new URLSearchParams(search).get('inviteToken');
  if (inviteToken) params.set('inviteToken', inviteToken);
  params.set('lang', language);
  return `/auth/?${params.toString()}`;
}

/**
 * The login page (spec section 2). Plain React with no react-admin or MUI, so that the signed-out page loads
 * little JavaScript; it is also react-admin's loginPage.
 */
export function LoginScreen() {
  const [language, setLanguage] = useState<Language>(() => initialLanguage());
  const [issuer, setIssuer] = useState<'google' | 'embedded' | null>(null);
  const signedIn = Boolean(localStorage.getItem(STORAGE_KEYS.token));
  const text = TEXTS[language];

  useEffect(() => {
    if (signedIn) window.location.replace('/');
  }, [signedIn]);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = `${text.titles.login} · ${text.name}`;
  }, [language, text]);

  useEffect(() => {
    const controller = new AbortController();
    fetch('/auth/provider', { signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { issuer?: string } | null) => setIssuer(body?.issuer === 'google' ? 'google' : 'embedded'))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  if (signedIn) return null;
  const label = issuer === 'google' ? text.login.google : text.login.embedded;

  return (
    <main style={styles.page}>
      <section style={styles.card} aria-labelledby="login-title">
        <img src="/logo.svg" alt="" width={56} height={56} />
        <h1 id="login-title" style={styles.title}>
          {text.login.title}
        </h1>
        <p style={styles.subtitle}>{text.login.subtitle}</p>
        <a href={signInUrl(window.location.search, language)} style={styles.button} data-testid="google-sign-in">
          {issuer === 'google' ? <GoogleMark /> : issuer === 'embedded' ? <KeyMark /> : null}
          <span>{label}</span>
        </a>
        <div role="group" aria-label={text.login.language} style={styles.languages}>
          {LANGUAGES.map((one) => (
            <button
              key={one}
              type="button"
              lang={one}
              aria-pressed={one === language}
              onClick={() => setLanguage(storeLanguage(one))}
              style={{ ...styles.language, ...(one === language ? styles.languageActive : null) }}
              data-testid={`login-language-${one}`}
            >
              {one === 'en' ? 'English' : 'Español'}
            </button>
          ))}
        </div>
      </section>
    </main>
  );
}

/** The embedded issuer's mark: a plain key, not another company's logo. */
function KeyMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" data-mark="key">
      <path fill="#1f4e79" d="M12.65 10A5.99 5.99 0 0 0 7 6c-3.31 0-6 2.69-6 6s2.69 6 6 6a5.99 5.99 0 0 0 5.65-4H17v4h4v-4h2v-4H12.65zM7 14c-1.1 0-2-.9-2-2s.9-2 2-2 2 .9 2 2-.9 2-2 2z" />
    </svg>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" data-mark="google">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.7 6c4.5-4.2 6.9-10.3 6.9-17.7z" />
      <path fill="#FBBC05" d="M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.1z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.2 1.5-5 2.3-8.2 2.3-6.2 0-11.5-4.1-13.4-9.9l-7.9 6.1C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}

const styles: Record<string, CSSProperties> = {
  page: { minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16, background: 'linear-gradient(160deg, #1f4e79 0%, #2f6ea5 45%, #f5f6f8 45%)' },
  card: { background: '#fff', borderRadius: 12, boxShadow: '0 8px 30px rgba(0,0,0,.15)', padding: '40px 32px', width: '100%', maxWidth: 380, textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12 },
  title: { margin: '8px 0 0', fontSize: 24, fontWeight: 500, color: '#1b1b1b' },
  subtitle: { margin: 0, color: '#555', fontSize: 15, lineHeight: 1.4 },
  button: { marginTop: 16, display: 'inline-flex', alignItems: 'center', justifyContent: 'center', gap: 12, width: '100%', boxSizing: 'border-box', padding: '11px 16px', borderRadius: 6, border: '1px solid #c6c6c6', color: '#1f1f1f', background: '#fff', textDecoration: 'none', fontSize: 15, fontWeight: 500 },
  languages: { display: 'flex', gap: 8, marginTop: 12 },
  language: { border: 'none', background: 'none', color: '#1f4e79', cursor: 'pointer', padding: '4px 8px', fontSize: 14, borderRadius: 4 },
  languageActive: { fontWeight: 700, textDecoration: 'underline' },
};
