import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

/** The port every feature sends mail through. */
export interface Mailer {
  readonly kind: 'console' | 'smtp';
  send(message: MailMessage): Promise<void>;
  /** Readiness: can mail be handed over now? */
  verify(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Embedded default: each message is written as JSON to DATA_DIR/outbox and announced in the log (without
 * its body, which may hold a code or a link). An operator without SMTP reads the outbox.
 */
class OutboxMailer implements Mailer {
  readonly kind = 'console' as const;
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const at = new Date().toISOString();
    const file = path.join(this.dir, `${at.replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.json`);
    await fs.writeFile(file, JSON.stringify({ from: this.from, ...message, sentAt: at }, null, 2), { mode: 0o600 });
    // Neither subject nor body is logged: either may carry a code or a one-time link.
    this.log?.info({ to: message.to, outboxFile: file }, 'mail written to the outbox');
  }

  async verify(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
  }

  async close(): Promise<void> {}
}

/** Production: any SMTP server (SMTP_URL), through nodemailer. */
class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  async verify(): Promise<void> {
    await this.transport.verify();
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

export function createMailer(opts: { smtpUrl?: string; from: string; dataDir: string; log?: FastifyBaseLogger }): Mailer {
  return opts.smtpUrl ? new SmtpMailer(opts.smtpUrl, opts.from) : new OutboxMailer(path.join(opts.dataDir, 'outbox'), opts.from, opts.log);
}
