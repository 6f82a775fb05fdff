/**
 * Outgoing mail (DESIGN: mail/): nodemailer over SMTP when SMTP_URL is set; otherwise each message is written as
 * an .eml file under DATA_DIR/outbox, so the embedded setup sends nothing anywhere and a person can still open it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string; file?: string }>;
  close(): void;
}

export const DEFAULT_FROM = 'Backoffice <no-reply@backoffice.local>';

export function createMailer(config: Pick<Config, 'smtpUrl' | 'dataDir'> & { mailFrom?: string }): Mailer {
  const from = config.mailFrom ?? process.env.MAIL_FROM ?? DEFAULT_FROM;
  if (config.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from, ...message });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  // No SMTP: build the same MIME message nodemailer would send and keep it in the outbox.
  const transport: Transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const outbox = join(config.dataDir, 'outbox');
  return {
    async send(message) {
      const info = (await transport.sendMail({ from, ...message })) as { messageId: string; message: Buffer };
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(outbox, `${stamp}-${info.messageId.replace(/[^A-Za-z0-9@._-]/g, '')}.eml`);
      await writeFile(file, info.message);
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
