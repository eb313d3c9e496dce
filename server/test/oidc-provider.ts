/**
 * A real OpenID provider for the single sign-on tests: oidc-provider (a certified provider library) on 127.0.0.1 on
 * a free port, with its in-memory adapter, one client registered with the test app's redirect URI, and a tiny
 * interaction handler in place of a login page: the next sign-in is the account the test names with `loginAs`.
 * The test drives the browser's part with HTTP requests (`authorize`), and may rotate the provider's keys or
 * tamper with the ID token the token endpoint answers (a forged signature, an expired token, another audience).
 * With `loginPages` (the browser tests), the provider shows its own login and consent pages instead, where a
 * person types the subject as the login; `loginAs` then only registers the account's claims. With
 * `claimsAtUserinfo` the ID token carries the subject but no address or name, which only userinfo serves (as some
 * providers do).
 */
import { createHash, createSign, generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type IdpAccount = { sub: string; email?: string; emailVerified?: boolean; name?: string; amr?: string[]; acr?: string };
type Jwk = JsonWebKey & { kid: string; alg: string; use: string };
type Tamper = (claims: Record<string, unknown>) => { claims: Record<string, unknown>; key: 'provider' | 'foreign' };

function rsaKey(): Jwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** Signs claims as an RS256 JWT with the private JWK. */
function signJwt(claims: Record<string, unknown>, jwk: Jwk): string {
  const head = b64(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: jwk.kid }));
  const body = b64(JSON.stringify(claims));
  const sig = createSign('RSA-SHA256').update(`${head}.${body}`).sign({ key: jwk, format: 'jwk' });
  return `${head}.${body}.${b64(sig)}`;
}

export type TestIdp = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next sign-in at this provider is. */
  loginAs(account: IdpAccount): void;
  /** A new signing key at the provider: the old one is no longer published or used. */
  rotateKeys(): void;
  /** Changes the ID token of the next token answers (null: none). */
  tamper(fn: Tamper | null): void;
  /** The browser at the provider: follows its redirects from the authorization URL to the callback URL. */
  authorize(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
};

export async function startTestIdp(
  redirectUri: string,
  name = 'test-idp',
  options: { loginPages?: boolean; claimsAtUserinfo?: boolean } = {},
): Promise<TestIdp> {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A provider shared by a suite (the probes) must not keep the test process alive.
  server.unref();
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = `strongroom-${name}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map<string, IdpAccount>();
  let next: IdpAccount | null = null;
  let key = rsaKey();
  let tamperWith: Tamper | null = null;

  const build = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [key as never] },
      cookies: { keys: [randomBytes(16).toString('hex')] },
      claims: { openid: ['sub', 'amr', 'acr'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: !!options.claimsAtUserinfo,
      features: { devInteractions: { enabled: !!options.loginPages } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => {
        const a = accounts.get(sub) ?? (options.loginPages ? { sub } : undefined);
        if (!a) return undefined;
        return {
          accountId: sub,
          claims: () => ({ sub, email: a.email, email_verified: a.emailVerified ?? true, name: a.name }),
        };
      },
    });
    provider.proxy = false;
    const callback = provider.callback();
    handler = (req, res) => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname.startsWith('/interaction/') && !options.loginPages) {
        void interact(provider, req, res).catch((err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        });
        return;
      }
      if (url.pathname === '/token' && tamperWith) rewriteIdToken(res, tamperWith);
      void callback(req, res);
    };
  };

  const rewriteIdToken = (res: http.ServerResponse, fn: Tamper) => {
    const end = res.end.bind(res) as (chunk?: unknown) => http.ServerResponse;
    (res as { end: (chunk?: unknown) => http.ServerResponse }).end = (chunk?: unknown) => {
      const body = JSON.parse(Buffer.from(chunk as Buffer).toString('utf8')) as { id_token?: string };
      if (body.id_token) {
        const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
        const out = fn(claims);
        // A foreign key under the provider's own key id: only the signature tells them apart.
        const signer = out.key === 'provider' ? key : { ...rsaKey(), kid: key.kid };
        body.id_token = signJwt(out.claims, signer);
      }
      const text = JSON.stringify(body);
      res.setHeader('content-length', Buffer.byteLength(text));
      return end(text);
    };
  };

  const interact = async (provider: Provider, req: http.IncomingMessage, res: http.ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!next) throw new Error('no account to sign in as');
      accounts.set(next.sub, next);
      const login: { accountId: string; amr?: string[]; acr?: string } = { accountId: next.sub };
      if (next.amr) login.amr = next.amr;
      if (next.acr) login.acr = next.acr;
      await provider.interactionFinished(req, res, { login }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = details.session?.accountId ?? '';
    const grant = new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };

  build();

  return {
    issuer,
    clientId,
    clientSecret,
    loginAs: (account) => {
      next = account;
      if (options.loginPages) accounts.set(account.sub, account);
    },
    rotateKeys: () => {
      key = rsaKey();
      build();
    },
    tamper: (fn) => {
      tamperWith = fn;
    },
    authorize: async (authorizationUrl) => {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 20; hop += 1) {
        if (url.href.startsWith(redirectUri)) return url;
        const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
        const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
        for (const line of res.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair!.indexOf('=');
          const [k, v] = [pair!.slice(0, at).trim(), pair!.slice(at + 1).trim()];
          if (v === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(k);
          else jar.set(k, v);
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`the provider stopped at ${url.pathname} (${res.status}): ${(await res.text()).slice(0, 300)}`);
        url = new URL(location, url);
      }
      throw new Error('too many redirects at the provider');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A stable subject for a test person (the provider's own id for them). */
export const subjectOf = (label: string) => createHash('sha256').update(label).digest('hex').slice(0, 24);
