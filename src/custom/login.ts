import { LANGUAGES, STORAGE_KEYS, type Language } from '../../shared/domain/constants';
import type { LOGIN_TEXTS } from '../i18n/login-texts';
import { initialLanguage, storeLanguage } from '../i18n/language';

/** The address of the sign-in button: the backend's /auth/, carrying inviteToken and the language. */
export function signInUrl(search: string, language: Language): string {
  const params = new URLSearchParams();
  const inviteToken = new URLSearchParams(search).get('inviteToken');
  if (inviteToken) params.set('inviteToken', inviteToken);
  params.set('lang', language);
  return `/auth/?${params.toString()}`;
}

type Issuer = 'google' | 'embedded';

/** The embedded issuer's mark is a plain key, not another company's logo; Google's is its own. */
const MARKS: Record<Issuer, { viewBox: string; paths: [fill: string, d: string][] }> = {
  embedded: {
    viewBox: '0 0 24 24',
    paths: [['#1f4e79', 'M12.65 10A5.99 5.99 0 0 0 7 6c-3.31 0-6 2.69-6 6s2.69 6 6 6a5.99 5.99 0 0 0 5.65-4H17v4h4v-4h2v-4H12.65zM7 14c-1.1 0-2-.9-2-2s.9-2 2-2 2 .9 2 2-.9 2-2 2z']],
  },
  google: {
    viewBox: '0 0 48 48',
    paths: [
      ['#EA4335', 'M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z'],
      ['#4285F4', 'M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.7 6c4.5-4.2 6.9-10.3 6.9-17.7z'],
      ['#FBBC05', 'M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.1z'],
      ['#34A853', 'M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.2 1.5-5 2.3-8.2 2.3-6.2 0-11.5-4.1-13.4-9.9l-7.9 6.1C6.6 42.6 14.6 48 24 48z'],
    ],
  },
};

const SVG = 'http://www.w3.org/2000/svg';

function mark(issuer: Issuer): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({ width: '18', height: '18', viewBox: MARKS[issuer].viewBox, 'aria-hidden': 'true', 'data-mark': issuer === 'google' ? 'google' : 'key' })) {
    svg.setAttribute(name, value);
  }
  for (const [fill, d] of MARKS[issuer].paths) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('fill', fill);
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

const STYLES = {
  page: 'min-height:100vh;display:grid;place-items:center;padding:16px;box-sizing:border-box;background:linear-gradient(160deg,#1f4e79 0%,#2f6ea5 45%,#f5f6f8 45%)',
  card: 'background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.15);padding:40px 32px;width:100%;max-width:380px;box-sizing:border-box;text-align:center;display:flex;flex-direction:column;align-items:center;gap:12px',
  title: 'margin:8px 0 0;font-size:24px;font-weight:500;color:#1b1b1b',
  subtitle: 'margin:0;color:#555;font-size:15px;line-height:1.4',
  button: 'margin-top:16px;display:inline-flex;align-items:center;justify-content:center;gap:12px;width:100%;box-sizing:border-box;padding:11px 16px;border-radius:6px;border:1px solid #c6c6c6;color:#1f1f1f;background:#fff;text-decoration:none;font-size:15px;font-weight:500',
  languages: 'display:flex;gap:8px;margin-top:12px',
  language: 'border:none;background:none;color:#1f4e79;cursor:pointer;padding:4px 8px;font-size:14px;border-radius:4px',
  languageActive: 'font-weight:700;text-decoration:underline',
};

function element<K extends keyof HTMLElementTagNameMap>(tag: K, style: string, attributes: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.style.cssText = style;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/**
 * The login page (spec section 2), drawn with the DOM alone: no React, react-admin or MUI, so that the signed-out page
 * loads a few kilobytes of JavaScript (issue 16: /login <= 60 KB on the wire, when React's DOM alone is about that).
 * Its strings come from whoever draws it (src/i18n/login-texts.ts, which travels in the entry file). A signed-in
 * visitor goes home. Returns a function that takes the page down (react-admin's loginPage mounts it too).
 */
export function renderLogin(container: HTMLElement, texts: typeof LOGIN_TEXTS): () => void {
  if (localStorage.getItem(STORAGE_KEYS.token)) {
    window.location.replace('/');
    return () => undefined;
  }
  let language = initialLanguage();
  let issuer: Issuer | null = null;

  const page = element('main', STYLES.page);
  const card = element('section', STYLES.card, { 'aria-labelledby': 'login-title' });
  const logo = element('img', '', { src: '/logo.svg', alt: '', width: '56', height: '56' });
  const title = element('h1', STYLES.title, { id: 'login-title' });
  const subtitle = element('p', STYLES.subtitle);
  const signIn = element('a', STYLES.button, { 'data-testid': 'google-sign-in' });
  const label = document.createElement('span');
  const languages = element('div', STYLES.languages, { role: 'group' });
  const buttons = LANGUAGES.map((one) => {
    const button = element('button', '', { type: 'button', lang: one, 'data-testid': `login-language-${one}` });
    button.textContent = one === 'en' ? 'English' : 'Español';
    button.addEventListener('click', () => {
      language = storeLanguage(one);
      update();
    });
    return button;
  });
  languages.append(...buttons);
  signIn.append(label);
  card.append(logo, title, subtitle, signIn, languages);
  page.append(card);
  container.replaceChildren(page);

  /** Writes the texts of the language and the issuer's mark into the page, in place (focus stays where it is). */
  function update() {
    const text = texts[language];
    document.documentElement.lang = language;
    document.title = `${text.titles.login} · ${text.name}`;
    title.textContent = text.login.title;
    subtitle.textContent = text.login.subtitle;
    signIn.href = signInUrl(window.location.search, language);
    label.textContent = issuer === 'google' ? text.login.google : text.login.embedded;
    signIn.querySelector('svg')?.remove();
    if (issuer) signIn.prepend(mark(issuer));
    languages.setAttribute('aria-label', text.login.language);
    for (const [index, button] of buttons.entries()) {
      const active = LANGUAGES[index] === language;
      button.setAttribute('aria-pressed', String(active));
      button.style.cssText = active ? `${STYLES.language};${STYLES.languageActive}` : STYLES.language;
    }
  }
  update();

  const controller = new AbortController();
  fetch('/auth/provider', { signal: controller.signal })
    .then((response) => (response.ok ? response.json() : null))
    .then((body: { issuer?: string } | null) => {
      issuer = body?.issuer === 'google' ? 'google' : 'embedded';
      update();
    })
    .catch(() => undefined);

  return () => {
    controller.abort();
    page.remove();
  };
}
