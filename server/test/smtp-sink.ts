import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';

export type SinkMessage = { to: string[]; from: string; subject: string; text: string };

/** A real SMTP server on loopback that keeps what it receives, for tests of mail the product sends. */
export type SmtpSink = {
  url: string;
  messages: SinkMessage[];
  /** Waits for the next message to `to` that arrives after `since` messages (default: any new one). */
  waitFor(to: string, opts?: { subjectIncludes?: string; timeoutMs?: number }): Promise<SinkMessage>;
  lastCode(to: string): Promise<string>;
  lastLink(to: string, pathname: string): Promise<string>;
  clear(): void;
  close(): Promise<void>;
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, opts = {}) {
      const match = () =>
        [...messages].reverse().find((m) => m.to.includes(to.toLowerCase()) && (!opts.subjectIncludes || m.subject.includes(opts.subjectIncludes)));
      return vi.waitFor(
        () => {
          const m = match();
          if (!m) throw new Error(`no mail to ${to} arrived`);
          return m;
        },
        { timeout: opts.timeoutMs ?? 5000, interval: 25 },
      );
    },
    async lastCode(to) {
      const m = await sink.waitFor(to, { subjectIncludes: 'verification code' });
      const code = /\b(\d{6})\b/.exec(`${m.subject}\n${m.text}`)?.[1];
      if (!code) throw new Error('no code in the mail');
      return code;
    },
    async lastLink(to, pathname) {
      const re = new RegExp(`https?://\\S+${pathname.replace(/[/?]/g, '\\$&')}\\?token=[A-Za-z0-9_%-]+`);
      return vi.waitFor(
        () => {
          const m = [...messages].reverse().find((x) => x.to.includes(to.toLowerCase()) && re.test(x.text));
          if (!m) throw new Error(`no ${pathname} link in the mail`);
          return re.exec(m.text)![0];
        },
        { timeout: 5000, interval: 25 },
      );
    },
    clear() {
      messages.splice(0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}
