import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

const PERIOD = 30;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, label = '', issuer = 'Strongroom') {
  return new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: OTPAuth.Secret.fromBase32(secretBase32) });
}

export async function totpQrCode(secretBase32: string, email: string, organizationName: string): Promise<string> {
  const uri = totpFor(secretBase32, email, `Strongroom (${organizationName})`).toString();
  return QRCode.toDataURL(uri, { margin: 1, width: 240 });
}

/**
 * Checks a code within one step either side and answers the time step it matched, or null. The caller
 * stores the step and refuses any step not newer than the last one used, so a code works only once.
 */
export function matchTotpStep(secretBase32: string, token: string, now = Date.now()): number | null {
  const delta = totpFor(secretBase32).validate({ token, window: 1, timestamp: now });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD) + delta;
}

/** For tests and the CLI: the code an authenticator shows now. */
export function currentTotp(secretBase32: string, now = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: now });
}
