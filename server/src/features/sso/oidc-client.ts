import * as oidc from 'openid-client';

/**
 * The OpenID Connect client side of single sign-on, on openid-client (a certified relying party library). Each
 * sign-in reads the provider's configuration afresh, so its signing keys are those it publishes at that moment: a
 * rotation at the provider is seen at the next sign-in, with no cache to wait out. ID tokens from the token
 * endpoint have their signature checked against those keys (non-repudiation checks), besides the issuer, audience,
 * expiry, nonce, state and PKCE checks the library makes.
 */
export type ProviderClient = { issuer: string; clientId: string; clientSecret: string };

/** http:// issuers on loopback only, and only when the installation allows them (tests, a local provider). */
export function issuerAllowed(issuer: string, allowHttpLoopback: boolean): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash || url.search) return false;
  if (url.protocol === 'https:') return true;
  return allowHttpLoopback && url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** Why a provider could not be used, in words an administrator can act on. */
export class ProviderUnavailable extends Error {
  constructor(
    message: string,
    readonly incomplete: boolean,
  ) {
    super(message);
  }
}

export async function discover(p: ProviderClient): Promise<oidc.Configuration> {
  const insecure = new URL(p.issuer).protocol === 'http:';
  let found: oidc.Configuration;
  try {
    found = await oidc.discovery(new URL(p.issuer), p.clientId, undefined, oidc.ClientSecretBasic(p.clientSecret), {
      execute: insecure ? [oidc.allowInsecureRequests] : [],
      timeout: 10,
    });
  } catch (err) {
    throw new ProviderUnavailable(err instanceof Error ? err.message : String(err), false);
  }
  const meta = found.serverMetadata();
  if (!meta.authorization_endpoint || !meta.token_endpoint || !meta.jwks_uri) throw new ProviderUnavailable('incomplete metadata', true);
  // The client secret goes in the way the provider accepts it (Basic unless it names only the form body).
  const methods = meta.token_endpoint_auth_methods_supported;
  const basic = !methods || methods.includes('client_secret_basic');
  const config = new oidc.Configuration(
    meta,
    p.clientId,
    undefined,
    basic ? oidc.ClientSecretBasic(p.clientSecret) : oidc.ClientSecretPost(p.clientSecret),
  );
  if (insecure) oidc.allowInsecureRequests(config);
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** What a sign-in keeps between the redirect and the callback. */
export type Checks = { state: string; nonce: string; codeVerifier: string };

export function newChecks(): Checks {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
}

export async function authorizationUrl(config: oidc.Configuration, checks: Checks, redirectUri: string, loginHint?: string) {
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
  };
  if (loginHint) params.login_hint = loginHint;
  return oidc.buildAuthorizationUrl(config, params).href;
}

/** The claims Strongroom reads of a verified ID token. */
export type VerifiedClaims = {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  amr: string[];
  acr: string | null;
};

/**
 * Exchanges the code of the callback for tokens and verifies the ID token (state, PKCE, issuer, audience, expiry,
 * nonce, signature). Throws the library's error on any failure. A provider that keeps the address or the name out
 * of the ID token (they are then served at userinfo only) is asked at its userinfo endpoint with the access token,
 * for the same subject; the subject itself only ever comes from the verified ID token.
 */
export async function exchangeCode(config: oidc.Configuration, callbackUrl: URL, checks: Checks): Promise<VerifiedClaims> {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token');
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  let email = str(claims.email);
  let emailVerified = claims.email_verified === true;
  let name = str(claims.name);
  if ((!email || !name) && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    try {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      if (!email && str(info.email)) {
        email = str(info.email);
        emailVerified = info.email_verified === true;
      }
      name ??= str(info.name);
    } catch {
      // Without userinfo the sign-in goes on with what the ID token says: a linked person needs no address.
    }
  }
  return {
    subject: claims.sub,
    email: email?.toLowerCase() ?? null,
    emailVerified,
    name,
    amr: Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [],
    acr: str(claims.acr),
  };
}
