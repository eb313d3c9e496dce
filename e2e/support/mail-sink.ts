import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';

export type StoredMail = { to: string[]; subject: string; text: string; receivedAt: number };

/**
 * A real SMTP server on loopback for the end-to-end run. Each message is written as JSON to `dir`, where
 * the test workers (other processes) read it.
 */
export async function startMailSink(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          n += 1;
          const stored: StoredMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            receivedAt: Date.now(),
          };
          fs.writeFileSync(path.join(dir, `${String(n).padStart(6, '0')}.json`), JSON.stringify(stored));
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export function readMail(dir: string): StoredMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as StoredMail);
}

/** Waits for a mail to `to` received after `since` (ms epoch) whose subject or text matches. */
export async function waitForMail(dir: string, to: string, since: number, match: RegExp, timeoutMs = 15_000): Promise<StoredMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readMail(dir)
      .reverse()
      .find((m) => m.receivedAt >= since && m.to.includes(to.toLowerCase()) && (match.test(m.subject) || match.test(m.text)));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${match}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function waitForCode(dir: string, to: string, since: number): Promise<string> {
  const mail = await waitForMail(dir, to, since, /verification code/i);
  return /\b(\d{6})\b/.exec(`${mail.subject}\n${mail.text}`)![1]!;
}

export async function waitForLink(dir: string, to: string, since: number, pathname: string): Promise<string> {
  const re = new RegExp(`https?://\\S+${pathname}\\?token=[A-Za-z0-9_%-]+`);
  const mail = await waitForMail(dir, to, since, re);
  return re.exec(mail.text)![0];
}
