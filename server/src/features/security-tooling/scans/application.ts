/**
 * The APPLICATION target: the security headers of a real answer of this server, the session cookie's flags, the
 * session lifetimes and password rule, and the installed dependencies against the shipped advisories.
 */
import { LIMITS } from '@strongroom/contracts';
import type { AppContext } from '../../../shared/context.js';
import { cookieOptions } from '../../sessions/index.js';
import type { FindingValues } from '../security-tooling.repository.js';
import { errorText, finding, header, type ScanDeps } from './common.js';
import { compareVersions, isAffected } from './versions.js';

export async function scanApplication(ctx: AppContext, deps: ScanDeps): Promise<FindingValues[]> {
  const https = ctx.config.appUrl.startsWith('https://');
  return [...(await headerFindings(deps, https)), ...sessionFindings(ctx, https), ...(await dependencyFindings(deps))];
}

/** Security headers of a real answer. */
async function headerFindings(deps: ScanDeps, https: boolean): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  try {
    const h = await deps.probe();
    const csp = header(h, 'content-security-policy');
    if (!csp) {
      out.push(
        finding(
          'CSP_MISSING',
          'HIGH',
          'No Content-Security-Policy',
          'Answers carry no Content-Security-Policy header.',
          'Send a Content-Security-Policy that allows scripts only from Strongroom itself.',
        ),
      );
    } else {
      const scriptSrc = /script-src([^;]*)/.exec(csp)?.[1] ?? /default-src([^;]*)/.exec(csp)?.[1] ?? '';
      if (/'unsafe-inline'|'unsafe-eval'/.test(scriptSrc)) {
        out.push(
          finding(
            'CSP_UNSAFE_SCRIPT',
            'MEDIUM',
            'Content-Security-Policy allows inline or evaluated script',
            `script-src is "${scriptSrc.trim()}".`,
            "Remove 'unsafe-inline' and 'unsafe-eval' from script-src.",
          ),
        );
      }
      if (!/frame-ancestors/.test(csp) && !header(h, 'x-frame-options')) {
        out.push(
          finding(
            'FRAMING_ALLOWED',
            'MEDIUM',
            'Pages may be framed by other sites',
            'Neither frame-ancestors nor X-Frame-Options is sent (clickjacking).',
            "Add frame-ancestors 'none' to the Content-Security-Policy.",
          ),
        );
      }
    }
    if (header(h, 'x-content-type-options')?.toLowerCase() !== 'nosniff') {
      out.push(
        finding(
          'NOSNIFF_MISSING',
          'MEDIUM',
          'X-Content-Type-Options is not nosniff',
          'Browsers may guess the type of downloaded content.',
          'Send X-Content-Type-Options: nosniff on every answer.',
        ),
      );
    }
    if (!header(h, 'referrer-policy')) {
      out.push(
        finding(
          'REFERRER_POLICY_MISSING',
          'LOW',
          'No Referrer-Policy',
          'Addresses of Strongroom pages may leak to other sites in the Referer header.',
          'Send Referrer-Policy: no-referrer.',
        ),
      );
    }
    if (https && !header(h, 'strict-transport-security')) {
      out.push(
        finding(
          'HSTS_MISSING',
          'HIGH',
          'No Strict-Transport-Security over https',
          'Browsers are not told to refuse plain http for Strongroom.',
          'Send Strict-Transport-Security with a max-age of at least 180 days.',
        ),
      );
    }
    const powered = header(h, 'x-powered-by');
    if (powered) {
      out.push(
        finding(
          'VERSION_DISCLOSED',
          'LOW',
          'The server names its software',
          `X-Powered-By: ${powered}.`,
          'Remove the X-Powered-By header.',
        ),
      );
    }
  } catch (err) {
    out.push(
      finding(
        'HEADERS_UNREADABLE',
        'INFO',
        'The security headers could not be read',
        errorText(err),
        'Run the scan again; check the server log.',
      ),
    );
  }
  return out;
}

/** Session cookie flags, as the server sets them; session lifetimes and the password rule. */
function sessionFindings(ctx: AppContext, https: boolean): FindingValues[] {
  const out: FindingValues[] = [];
  const cookie = cookieOptions(ctx, 60);
  if (!cookie.httpOnly) {
    out.push(
      finding(
        'COOKIE_NOT_HTTPONLY',
        'HIGH',
        'The session cookie is readable by scripts',
        'The session cookie is set without HttpOnly.',
        'Set the session cookie HttpOnly.',
      ),
    );
  }
  if (!cookie.secure) {
    out.push(
      finding(
        'COOKIE_NOT_SECURE',
        https ? 'HIGH' : 'MEDIUM',
        'The session cookie may travel over plain http',
        `The session cookie is set without Secure (APP_URL is ${ctx.config.appUrl}).`,
        'Serve Strongroom over https (APP_URL https://...): the cookie is then Secure.',
      ),
    );
  }
  if (String(cookie.sameSite).toLowerCase() === 'none') {
    out.push(
      finding(
        'COOKIE_SAMESITE_NONE',
        'MEDIUM',
        'The session cookie is sent on requests from other sites',
        'SameSite=None.',
        'Use SameSite=Lax or Strict.',
      ),
    );
  }

  // Session lifetimes and the password rule.
  const { idleMinutes, absoluteHours } = ctx.config.session;
  if (idleMinutes > 60) {
    out.push(
      finding(
        'SESSION_IDLE_LONG',
        'MEDIUM',
        'Idle sessions live long',
        `A session stays signed in after ${idleMinutes} minutes without activity.`,
        'Set SESSION_IDLE_MINUTES to 60 or less (30 is usual for legal records).',
      ),
    );
  }
  if (absoluteHours > 24) {
    out.push(
      finding(
        'SESSION_ABSOLUTE_LONG',
        'LOW',
        'Sessions last more than a day',
        `A session may last ${absoluteHours} hours before a new sign-in.`,
        'Set SESSION_ABSOLUTE_HOURS to 24 or less.',
      ),
    );
  }
  if (LIMITS.passwordMin < 8) {
    out.push(
      finding(
        'PASSWORD_SHORT',
        'HIGH',
        'Short passwords are accepted',
        `Passwords of ${LIMITS.passwordMin} characters are accepted.`,
        'Require at least 8 characters (with a second factor) or 15 without.',
      ),
    );
  } else {
    out.push(
      finding(
        'PASSWORD_POLICY',
        'INFO',
        'Password rule',
        `Passwords of ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters, with a second factor required for every account.`,
        'None.',
      ),
    );
  }
  return out;
}

/** Dependencies against the advisories shipped with the release. */
async function dependencyFindings(deps: ScanDeps): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const packages = [...new Set(deps.advisories.map((a) => a.package))];
  let checked = 0;
  for (const pkg of packages) {
    const version = await deps.installedVersion(pkg);
    if (!version) continue;
    checked++;
    for (const advisory of deps.advisories.filter((a) => a.package === pkg && isAffected(version, a))) {
      const fixed = advisory.ranges.find(
        (r) => compareVersions(version, r.introduced) >= 0 && compareVersions(version, r.fixed) < 0,
      )!.fixed;
      out.push(
        finding(
          'DEPENDENCY_ADVISORY',
          advisory.severity,
          `${pkg} ${version}: ${advisory.id}`,
          advisory.summary,
          `Upgrade ${pkg} to ${fixed} or later.`,
        ),
      );
    }
  }
  out.push(
    finding(
      'DEPENDENCIES_CHECKED',
      'INFO',
      'Dependencies checked',
      `${checked} installed packages compared with ${deps.advisories.length} known advisories.`,
      'None.',
    ),
  );
  return out;
}
