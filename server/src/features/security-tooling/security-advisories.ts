/**
 * Known advisories of the packages Strongroom runs on, shipped with each release: the vulnerability scan of the
 * APPLICATION target compares the versions installed where the server runs against these. A version is affected
 * when it is at least `introduced` and below `fixed` in one of the ranges. Keep the list short and true: add an
 * advisory when one is published for a package the server uses, with the first fixed version.
 */
export type Advisory = {
  id: string;
  package: string;
  ranges: { introduced: string; fixed: string }[];
  severity: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW';
  summary: string;
};

export const SECURITY_ADVISORIES: Advisory[] = [
  {
    id: 'CVE-2025-32442',
    package: 'fastify',
    ranges: [{ introduced: '5.0.0', fixed: '5.3.2' }],
    severity: 'MEDIUM',
    summary: 'Invalid content-type parsing (a different letter case or a leading space) could skip body validation.',
  },
  {
    id: 'CVE-2022-39288',
    package: 'fastify',
    ranges: [{ introduced: '4.0.0', fixed: '4.8.1' }],
    severity: 'HIGH',
    summary: 'A malformed Content-Type header could crash the server (denial of service).',
  },
  {
    id: 'CVE-2025-22150',
    package: 'undici',
    ranges: [
      { introduced: '4.5.0', fixed: '5.28.5' },
      { introduced: '6.0.0', fixed: '6.21.1' },
      { introduced: '7.0.0', fixed: '7.2.3' },
    ],
    severity: 'MEDIUM',
    summary: 'Multipart form boundaries were made with Math.random(), which an attacker could predict.',
  },
  {
    id: 'CVE-2025-47279',
    package: 'undici',
    ranges: [
      { introduced: '0.0.0', fixed: '5.29.0' },
      { introduced: '6.0.0', fixed: '6.21.2' },
      { introduced: '7.0.0', fixed: '7.5.0' },
    ],
    severity: 'LOW',
    summary: 'Repeated requests to a server with a bad certificate could leak memory (denial of service).',
  },
  {
    id: 'CVE-2017-16082',
    package: 'pg',
    ranges: [{ introduced: '0.0.0', fixed: '7.1.2' }],
    severity: 'CRITICAL',
    summary: 'A malicious column name in a result could run code in the client (remote code execution).',
  },
  {
    id: 'CVE-2023-4316',
    package: 'zod',
    ranges: [{ introduced: '0.0.0', fixed: '3.22.3' }],
    severity: 'MEDIUM',
    summary: 'The email check could take exponential time on crafted input (denial of service).',
  },
  {
    id: 'CVE-2025-13033',
    package: 'nodemailer',
    ranges: [{ introduced: '0.0.0', fixed: '7.0.7' }],
    severity: 'MEDIUM',
    summary: 'Crafted addresses with quoted local parts could send mail to an unintended domain.',
  },
];
