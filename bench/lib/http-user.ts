// One simulated person: a keep-alive connection pool from an address of their own on the loopback range
// (127.0.1.x, 127.0.2.x, ...), a cookie jar, and every request recorded with its class, status and time.
import http from 'node:http';
import { currentTotp } from '../../server/src/features/mfa/totp.js';

export type RequestClass = 'read' | 'write' | 'upload' | 'download' | 'signin' | 'admin';
export type Sample = { cls: RequestClass; name: string; status: number; ms: number; at: number; error?: string; detail?: string };
export type Reply = { status: number; body: Buffer; headers: http.IncomingHttpHeaders; json<T = Record<string, unknown>>(): T };

const API = { 'x-api-version': 'v1.0.0' };
/** The newest TOTP step used for each secret, across sessions: a code works once. */
const lastSteps = new Map<string, number>();

/** The loopback address of person `i` (0-based): 127.0.1.1 ... */
export const addressOf = (i: number) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;

export class HttpUser {
  readonly cookies = new Map<string, string>();
  private readonly agent: http.Agent;

  constructor(
    readonly base: string,
    readonly address: string,
    readonly samples: Sample[],
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: address });
  }

  close(): void {
    this.agent.destroy();
  }

  /** One request; a connection error is recorded with status 0 and answered as such (never thrown). */
  request(
    cls: RequestClass,
    name: string,
    method: string,
    url: string,
    opts: { json?: unknown; body?: Buffer; headers?: Record<string, string>; record?: boolean } = {},
  ): Promise<Reply> {
    const target = new URL(url, this.base);
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const payload = opts.json !== undefined ? Buffer.from(JSON.stringify(opts.json)) : opts.body;
    const headers: Record<string, string> = {
      ...(target.pathname.startsWith('/_api') ? API : {}),
      ...(cookie ? { cookie } : {}),
      ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(payload ? { 'content-length': String(payload.length) } : {}),
      ...opts.headers,
    };
    const t0 = performance.now();
    return new Promise((resolve) => {
      const done = (status: number, body: Buffer, h: http.IncomingHttpHeaders, error?: string) => {
        const ms = performance.now() - t0;
        const detail = status >= 400 ? body.toString('utf8').slice(0, 160) : undefined;
        if (opts.record !== false)
          this.samples.push({ cls, name, status, ms, at: Date.now(), ...(error ? { error } : {}), ...(detail ? { detail } : {}) });
        resolve({ status, body, headers: h, json: <T>() => JSON.parse(body.toString('utf8') || '{}') as T });
      };
      const req = http.request(target, { method, headers, agent: this.agent, timeout: 60_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const c of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
            const [pair] = c.split(';');
            const eq = pair.indexOf('=');
            const k = pair.slice(0, eq).trim();
            const v = pair.slice(eq + 1).trim();
            if (v === '' || /max-age=0/i.test(c)) this.cookies.delete(k);
            else this.cookies.set(k, v);
          }
          done(res.statusCode ?? 0, Buffer.concat(chunks), res.headers);
        });
        res.on('error', (err) => done(0, Buffer.alloc(0), {}, err.message));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => done(0, Buffer.alloc(0), {}, (err as NodeJS.ErrnoException).code ?? err.message));
      req.end(payload);
    });
  }

  get(cls: RequestClass, name: string, url: string, headers?: Record<string, string>) {
    return this.request(cls, name, 'GET', url, { headers });
  }

  post(cls: RequestClass, name: string, url: string, json: unknown, headers?: Record<string, string>) {
    return this.request(cls, name, 'POST', url, { json, headers });
  }

  /** A TOTP code of a step newer than the last one used, waiting for the clock when the next step is not yet valid. */
  async freshCode(secret: string): Promise<string> {
    for (;;) {
      const now = Math.floor(Date.now() / 30_000);
      const step = Math.max((lastSteps.get(secret) ?? 0) + 1, now);
      if (step <= now + 1) {
        lastSteps.set(secret, step);
        return currentTotp(secret, step * 30_000 + 1000);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  /** Password, then the authenticator's code: true when a session was made. */
  async signIn(email: string, password: string, secret: string): Promise<boolean> {
    const login = await this.post('signin', 'login_with_password', '/_api/auth/login_with_password', { email, password });
    if (login.status !== 200) return false;
    const { userId } = login.json<{ userId: number }>();
    const token = await this.freshCode(secret);
    const verify = await this.post('signin', 'mfa-verify-totp', '/_api/auth/mfa-verify-totp', { userId, token });
    return verify.status === 200;
  }
}
