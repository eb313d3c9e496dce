/**
 * The NETWORK target: how Strongroom is reached (https, HSTS on a real answer) and which reverse proxies it
 * trusts for the client's address.
 */
import type { AppContext } from '../../../shared/context.js';
import type { FindingValues } from '../security-tooling.repository.js';
import { errorText, finding, header, isLoopbackHost, type ScanDeps } from './common.js';

/**
 * A reverse-proxy entry so wide that it believes addresses on the internet at large (an IPv4 range wider than /8,
 * an IPv6 range wider than /16): anyone could then choose the address the audit log records.
 */
function trustsTooWidely(entry: string): boolean {
  const m = /\/(\d+)$/.exec(entry);
  if (!m) return false;
  const prefix = Number(m[1]);
  return entry.includes(':') ? prefix < 16 : prefix < 8;
}

export async function scanNetwork(ctx: AppContext, deps: ScanDeps): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const url = new URL(ctx.config.appUrl);
  const https = url.protocol === 'https:';
  if (!https) {
    const local = isLoopbackHost(url.hostname);
    out.push(
      finding(
        'APP_URL_NOT_HTTPS',
        local ? 'MEDIUM' : 'HIGH',
        'Strongroom is served over plain http',
        `APP_URL is ${ctx.config.appUrl}: passwords, codes and session cookies travel unencrypted${local ? ' (on this machine only)' : ''}.`,
        'Serve Strongroom over https and set APP_URL to its https address.',
      ),
    );
  }
  try {
    const h = await deps.probe();
    const hsts = header(h, 'strict-transport-security');
    if (https && !hsts) {
      out.push(
        finding(
          'HSTS_MISSING',
          'HIGH',
          'No HSTS',
          'Strict-Transport-Security is not sent.',
          'Send Strict-Transport-Security: max-age=31536000; includeSubDomains.',
        ),
      );
    } else if (https && hsts) {
      const maxAge = Number(/max-age=(\d+)/i.exec(hsts)?.[1] ?? 0);
      if (maxAge < 180 * 24 * 3600)
        out.push(
          finding('HSTS_SHORT', 'LOW', 'HSTS max-age is short', `max-age is ${maxAge} seconds.`, 'Use a max-age of at least 180 days.'),
        );
      if (!/includesubdomains/i.test(hsts))
        out.push(finding('HSTS_NO_SUBDOMAINS', 'LOW', 'HSTS leaves subdomains out', hsts, 'Add includeSubDomains.'));
    } else if (!https) {
      out.push(
        finding(
          'HSTS_NOT_POSSIBLE',
          'INFO',
          'HSTS is not sent over http',
          'Browsers ignore HSTS on plain http; it is sent once APP_URL is https.',
          'Serve over https.',
        ),
      );
    }
  } catch (err) {
    out.push(finding('HEADERS_UNREADABLE', 'INFO', 'The headers could not be read', errorText(err), 'Run the scan again.'));
  }
  const proxies = ctx.config.trustProxy;
  if (proxies === false) {
    out.push(
      finding(
        'TRUST_PROXY_UNSET',
        https ? 'MEDIUM' : 'INFO',
        'No trusted reverse proxy',
        https
          ? 'TRUST_PROXY is not set: behind a TLS-terminating proxy every request appears to come from the proxy, so the audit log and sign-in throttles record its address instead of the client\u2019s.'
          : 'TRUST_PROXY is not set: the address of the connection is taken as the client\u2019s.',
        'Set TRUST_PROXY to the address of the reverse proxy that terminates TLS.',
      ),
    );
  } else if (proxies.some(trustsTooWidely)) {
    out.push(
      finding(
        'TRUST_PROXY_EVERYONE',
        'HIGH',
        'Every address is trusted as a proxy',
        `TRUST_PROXY is ${proxies.join(', ')}: any client can set the address the audit log records.`,
        'List only the reverse proxy\u2019s own address.',
      ),
    );
  } else {
    out.push(finding('TRUST_PROXY', 'INFO', 'Trusted reverse proxies', proxies.join(', '), 'None.'));
  }
  return out;
}
