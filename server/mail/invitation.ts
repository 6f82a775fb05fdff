/** The invitation email, in the inviter's language with the other one below, with the sign-in link. */
import type { MailMessage } from './index';
import { formatInstant } from '../../shared/domain/format';

const TEXTS = {
  es: {
    subject: 'Invitación a la consola de Backoffice',
    body: (inviter: string, link: string, until: string) =>
      `${inviter} le ha invitado a la consola de Backoffice.\n\nPara entrar, abra este enlace (sirve una sola vez y caduca el ${until}):\n${link}\n`,
  },
  en: {
    subject: 'Invitation to the Backoffice console',
    body: (inviter: string, link: string, until: string) =>
      `${inviter} has invited you to the Backoffice console.\n\nTo sign in, open this link (it works once and expires on ${until}):\n${link}\n`,
  },
} as const;

/** `timeZone`: the companies' (TIME_ZONE): the expiry is said on their clock, dd/mm/aaaa as the console writes days. */
export function invitationMail(options: { to: string; link: string; expiresAt: Date; inviter: string; lang: 'es' | 'en'; timeZone?: string }): MailMessage {
  const first = TEXTS[options.lang];
  const second = TEXTS[options.lang === 'es' ? 'en' : 'es'];
  const timeZone = options.timeZone ?? 'UTC';
  const until = (lang: 'es' | 'en') => `${formatInstant(options.expiresAt.toISOString(), lang, timeZone)} (${timeZone})`;
  return {
    to: options.to,
    subject: `${first.subject} / ${second.subject}`,
    text: `${first.body(options.inviter, options.link, until(options.lang))}\n---\n\n${second.body(options.inviter, options.link, until(options.lang === 'es' ? 'en' : 'es'))}`,
  };
}
