/**
 * A request URL as it may be written to the log: the value of every query parameter whose name holds 'token' or
 * 'code' (any case: token, mfaToken, setupToken, code, recoveryCode, ...), or names a signature, secret or password,
 * is replaced by [REDACTED]. Names are compared decoded, so `mfa%54oken=` is caught as well; the rest of the URL is
 * kept as sent so a line still says which call it was.
 */
const SECRET_NAME = /token|code|sig|secret|passw/i;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      const name = part.slice(0, eq);
      return SECRET_NAME.test(decodedName(name)) ? `${name}=[REDACTED]` : part;
    });
  return `${url.slice(0, q + 1)}${params.join('&')}`;
}
