import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/**
 * The one SMTP sink of Strongroom's tests: a real SMTP server on loopback that keeps what it receives. The server
 * tests read it in memory; the end-to-end run (whose browsers run in other processes) also has each mail written
 * as JSON to a folder and reads them there. Both take the code and the link out of a mail the same way.
 * No test runner is imported here, so vitest and Playwright can both load it.
 */
export type SinkMessage = { to: string[]; from: string; subject: string; text: string; receivedAt: number };

/** The six-digit code of a verification mail, if it holds one. */
export function codeIn(mail: Pick<SinkMessage, 'subject' | 'text'>): string | undefined {
  return /\b(\d{6})\b/.exec(`${mail.subject}\n${mail.text}`)?.[1];
}

const linkPattern = (pathname: string) => new RegExp(`https?://\\S+${pathname.replace(/[/?]/g, '\\$&')}\\?token=[A-Za-z0-9_%-]+`);

/** The token link to `pathname` (e.g. /accept-invitation) in a mail, if it holds one. */
function linkIn(mail: Pick<SinkMessage, 'text'>, pathname: string): string | undefined {
  return linkPattern(pathname).exec(mail.text)?.[0];
}

const isVerificationMail = (m: SinkMessage) => /verification code/i.test(`${m.subject}\n${m.text}`);

export type SmtpSink = {
  url: string;
  messages: SinkMessage[];
  /** The newest mail to `to` (with the subject part given), or the first to arrive within the timeout. */
  waitFor(to: string, opts?: { subjectIncludes?: string; timeoutMs?: number }): Promise<SinkMessage>;
  lastCode(to: string): Promise<string>;
  lastLink(to: string, pathname: string): Promise<string>;
  clear(): void;
  close(): Promise<void>;
};

/**
 * Starts the sink. With `dir`, each mail is also written there as `NNNNNN.json`, for readers in other processes
 * (readMailDir, waitForMailIn).
 */
export async function startSmtpSink(opts: { dir?: string } = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  // Each waiter is told of every arrival; it settles itself when the mail it waits for is there.
  const arrivals = new Set<() => void>();
  if (opts.dir) fs.mkdirSync(opts.dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const message: SinkMessage = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            receivedAt: Date.now(),
          };
          messages.push(message);
          if (opts.dir) fs.writeFileSync(path.join(opts.dir, `${String(messages.length).padStart(6, '0')}.json`), JSON.stringify(message));
          for (const tell of [...arrivals]) tell();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  /** Resolves with the newest mail that `pick` finds, now or at an arrival; fails after timeoutMs. */
  const awaitMail = <T>(pick: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = pick();
        if (found === undefined) return;
        done();
        resolve(found);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what} did not arrive within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        arrivals.delete(check);
      };
      arrivals.add(check);
      check();
    });
  const newest = (to: string, test: (m: SinkMessage) => boolean) =>
    [...messages].reverse().find((m) => m.to.includes(to.toLowerCase()) && test(m));

  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(to, o = {}) {
      return awaitMail(
        () => newest(to, (m) => !o.subjectIncludes || m.subject.includes(o.subjectIncludes)),
        o.timeoutMs ?? 5000,
        `a mail to ${to}`,
      );
    },
    async lastCode(to) {
      const code = codeIn(await sink.waitFor(to, { subjectIncludes: 'verification code' }));
      if (!code) throw new Error('no code in the mail');
      return code;
    },
    lastLink(to, pathname) {
      return awaitMail(
        () => {
          const m = newest(to, (x) => linkIn(x, pathname) !== undefined);
          return m && linkIn(m, pathname);
        },
        5000,
        `a ${pathname} link to ${to}`,
      );
    },
    clear() {
      messages.splice(0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}

/** The mails a sink started with `dir` has written there, oldest first. */
export function readMailDir(dir: string): SinkMessage[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as SinkMessage);
}

/**
 * Waits for a mail to `to`, received at or after `since` (ms epoch), that `pick` takes something from, in a folder
 * another process's sink writes to. The folder is looked at every 100 ms: no signal crosses the processes.
 */
export async function waitForMailIn<T>(
  dir: string,
  to: string,
  since: number,
  pick: (m: SinkMessage) => T | undefined,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const m of readMailDir(dir).reverse()) {
      if (m.receivedAt < since || !m.to.includes(to.toLowerCase())) continue;
      const found = pick(m);
      if (found !== undefined) return found;
    }
    if (Date.now() > deadline) throw new Error(`no ${what} to ${to} arrived within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The newest verification code sent to `to` since `since`, from a sink's folder. */
export function waitForCodeIn(dir: string, to: string, since: number): Promise<string> {
  return waitForMailIn(dir, to, since, (m) => (isVerificationMail(m) ? codeIn(m) : undefined), 'verification code');
}

/** The newest `pathname` token link sent to `to` since `since`, from a sink's folder. */
export function waitForLinkIn(dir: string, to: string, since: number, pathname: string): Promise<string> {
  return waitForMailIn(dir, to, since, (m) => linkIn(m, pathname), `${pathname} link`);
}
