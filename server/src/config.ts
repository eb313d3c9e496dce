import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { S3StorageOptions } from './platform/storage/s3-store.js';
import { parseFailpoints, type Failpoints } from './platform/failpoints.js';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** Storage class of vault copies on S3. GLACIER_IR keeps them readable at once; GLACIER / DEEP_ARCHIVE need a restore. */
  VAULT_STORAGE_CLASS: z
    .enum(['STANDARD', 'STANDARD_IA', 'ONEZONE_IA', 'INTELLIGENT_TIERING', 'GLACIER_IR', 'GLACIER', 'DEEP_ARCHIVE'])
    .default('GLACIER_IR'),
  /** Evaluation only: vault into a store that does not enforce write-once; certificates then say so. */
  VAULT_ALLOW_UNLOCKED_STORE: bool.default(false),
  /** Tests and a local provider only: single sign-on issuers at http:// on loopback (on by default when NODE_ENV=test). */
  SSO_ALLOW_HTTP_LOOPBACK: bool.optional(),
  STORAGE_SIGNING_KEY: z.string().min(32).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Strongroom <no-reply@strongroom.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, c) => {
      const r = parseTrustProxy(v);
      if (typeof r === 'string') {
        c.addIssue({ code: 'custom', message: r });
        return z.NEVER;
      }
      return r.value;
    }),
  MFA_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  SIGNING_PRIVATE_KEY: z
    .string()
    .transform((v) => v.replace(/\\n/g, '\n'))
    .pipe(z.string().includes('-----BEGIN PRIVATE KEY-----', { message: 'must be an Ed25519 private key in PKCS#8 PEM' }))
    .optional(),
  SETUP_TOKEN: z.string().min(16).optional(),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(5 * 1024 ** 4)
    .default(5 * 1024 ** 3),
  STORAGE_QUOTA_BYTES: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  UPLOAD_COMPLETION_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  JOB_RUNNER: z.enum(['embedded', 'off']).default('embedded'),
  VAULT_VERIFY_INTERVAL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  VAULT_VERIFY_BYTES_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1024 ** 2)
    .max(Number.MAX_SAFE_INTEGER)
    .default(50 * 1024 ** 3),
  /** The longest an organization's grown audit chain waits for its head to be signed into the write-once store. */
  AUDIT_HEAD_INTERVAL_SECONDS: z.coerce.number().int().min(2).max(86_400).default(60),
  TEXT_EXTRACTION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  TEXT_EXTRACTION_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(512),
  TEXT_EXTRACTION_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(500),
  /** Local store only: how long a retrieval of archived audit details takes, as cold storage would (default 60 s). */
  ARCHIVE_RETRIEVAL_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** A listener of its own serving only GET /metrics (Prometheus), on METRICS_HOST; unset: no such listener. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** GET /metrics on the main port, for requests with `Authorization: Bearer <token>`; unset: 404 there. */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Crash tests only: where a run is held so the test can kill the server there (platform/failpoints.ts). */
  FAILPOINTS: z
    .string()
    .optional()
    .transform((v, c) => {
      const r = parseFailpoints(v);
      if (typeof r === 'string') {
        c.addIssue({ code: 'custom', message: r });
        return z.NEVER;
      }
      return r;
    }),
});

type Env = z.infer<typeof envSchema>;

/**
 * TRUST_PROXY: 'false' (no proxy: the socket's address is the client) or a comma list of the reverse proxies'
 * own addresses or CIDR ranges (also proxy-addr's names loopback, linklocal, uniquelocal). X-Forwarded-For is
 * then read from the right, skipping only hops that are such proxies. 'true' (believe every hop) and a bare
 * hop count are refused: with them anyone could choose the address the throttles and the audit log see,
 * either by sending their own X-Forwarded-For or by reaching the server past the proxy.
 */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function parseTrustProxy(raw: string): { value: false | string[] } | string {
  const v = raw.trim().toLowerCase();
  if (v === 'false' || v === '0') return { value: false };
  if (v === 'true' || v === '1')
    return "'true' would believe any X-Forwarded-For; list the reverse proxies' addresses or CIDR ranges instead (e.g. 127.0.0.1 or 10.0.0.0/8,192.168.1.5)";
  if (/^\d+$/.test(v))
    return "a hop count cannot tell the proxy from a client that reaches the server directly; list the proxies' addresses or CIDR ranges instead";
  const entries = raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => {
    if (PROXY_NAMES.has(entry)) return false;
    const [addr, bits, ...rest] = entry.split('/');
    const family = net.isIP(addr ?? '');
    if (!family || rest.length > 0) return true;
    if (bits === undefined) return false;
    return !/^\d+$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128);
  });
  if (entries.length === 0 || bad.length > 0) return `not an address or CIDR range: ${bad.join(', ') || raw}`;
  const wide = entries.filter(catchAll);
  if (wide.length > 0)
    return `${wide.join(', ')} would believe the X-Forwarded-For of a large share of the internet; list the reverse proxies' own addresses or ranges (IPv4 /${MIN_IPV4_PREFIX} or narrower, IPv6 /${MIN_IPV6_PREFIX} or narrower)`;
  return { value: entries };
}

/**
 * A range so wide it takes in clients, not proxies: an IPv4 prefix shorter than /8 (0.0.0.0/0 at the extreme), an
 * IPv6 prefix shorter than /16 (::/0), or an IPv6 range holding the IPv4-mapped block (::ffff:0:0/96) with fewer
 * than 8 bits of the IPv4 address fixed, which the proxy check applies to every IPv4 client.
 */
const MIN_IPV4_PREFIX = 8;
const MIN_IPV6_PREFIX = 16;
function catchAll(entry: string): boolean {
  const [addr = '', bits] = entry.split('/');
  if (bits === undefined) return false;
  const prefix = Number(bits);
  if (net.isIP(addr) === 4) return prefix < MIN_IPV4_PREFIX;
  if (prefix < MIN_IPV6_PREFIX) return true;
  if (prefix >= 96 + MIN_IPV4_PREFIX) return false;
  const range = new net.BlockList();
  range.addSubnet(addr, prefix, 'ipv6');
  const mapped = new net.BlockList();
  mapped.addSubnet('::ffff:0:0', 96, 'ipv6');
  return range.check('::ffff:0.0.0.0', 'ipv6') || mapped.check(addr, 'ipv6');
}

export type Config = {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  appUrl: string;
  secureCookies: boolean;
  dataDir: string;
  databaseUrl?: string;
  s3?: S3StorageOptions;
  storageSigningKey?: string;
  smtpUrl?: string;
  mailFrom: string;
  logLevel: Env['LOG_LEVEL'];
  session: { idleMinutes: number; absoluteHours: number };
  /** Reverse proxies whose X-Forwarded-For is believed (addresses, CIDR ranges), or false for none. */
  trustProxy: false | string[];
  /** Key material for TOTP secrets at rest; without it one is kept in DATA_DIR/keys/mfa-encryption.key. */
  mfaEncryptionKey?: string;
  /** The Ed25519 key certificates are signed with (PKCS#8 PEM); without it one is kept in DATA_DIR/keys. */
  signingPrivateKey?: string;
  setupToken?: string;
  /** Largest file an upload may have, in bytes (default 5 GiB). */
  uploadMaxBytes: number;
  /** Default storage quota per organization in bytes (an organization's own quota wins); undefined: no limit. */
  storageQuotaBytes?: number;
  /** How long a completion may go without renewing its hold on an upload before a retry may take it over. */
  uploadCompletionLeaseSeconds: number;
  /** Off (an empty map) unless FAILPOINTS is set. */
  failpoints: Failpoints;
  /** 'embedded': this process runs background jobs; 'off': it only enqueues them (separate workers, tests). */
  jobRunner: 'embedded' | 'off';
  /** Vaulting into a store that does not enforce write-once is refused unless this is true (evaluation only). */
  vaultAllowUnlockedStore: boolean;
  /** Single sign-on issuers may be http:// on loopback (tests, a local provider); otherwise https:// only. */
  ssoAllowHttpLoopback: boolean;
  /** Continuous verification: each vault object is re-read at least once every this many days ... */
  vaultVerifyIntervalDays: number;
  /** ... reading at most this many bytes per hourly run (one object at least, however large). */
  vaultVerifyBytesPerHour: number;
  /** Seconds at most between an audit chain's growth and the signing of its head into the write-once store. */
  auditHeadIntervalSeconds: number;
  /** Reading one file's text for document search: wall time, memory of the reading process, pages read. */
  textExtraction: { timeoutSeconds: number; memoryMb: number; maxPages: number };
  /** Local store: seconds a retrieval of archived audit details waits, so it behaves like cold storage. */
  archiveRetrievalDelaySeconds: number;
  /** Prometheus metrics: a port of their own, and/or a bearer token for GET /metrics on the main port. */
  metrics: { port?: number; host: string; token?: string };
  /** Directory of the built web app, served from the same port when present. */
  webDist?: string;
};

export class ConfigError extends Error {}

/** Parses the environment; a bad value stops start-up with a message naming every variable at fault. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const s3Keys = [e.S3_BUCKET, e.S3_ENDPOINT, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY].filter(Boolean);
  if (s3Keys.length > 0 && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when any S3_* variable is set');
  }
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    secureCookies: appUrl.startsWith('https://'),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          bucket: e.S3_BUCKET,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          vaultStorageClass: e.VAULT_STORAGE_CLASS,
        }
      : undefined,
    storageSigningKey: e.STORAGE_SIGNING_KEY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteHours: e.SESSION_ABSOLUTE_HOURS },
    trustProxy: e.TRUST_PROXY,
    mfaEncryptionKey: e.MFA_ENCRYPTION_KEY,
    signingPrivateKey: e.SIGNING_PRIVATE_KEY,
    setupToken: e.SETUP_TOKEN,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    storageQuotaBytes: e.STORAGE_QUOTA_BYTES,
    uploadCompletionLeaseSeconds: e.UPLOAD_COMPLETION_LEASE_SECONDS,
    failpoints: e.FAILPOINTS,
    jobRunner: e.JOB_RUNNER,
    vaultAllowUnlockedStore: e.VAULT_ALLOW_UNLOCKED_STORE,
    ssoAllowHttpLoopback: e.SSO_ALLOW_HTTP_LOOPBACK ?? e.NODE_ENV === 'test',
    vaultVerifyIntervalDays: e.VAULT_VERIFY_INTERVAL_DAYS,
    vaultVerifyBytesPerHour: e.VAULT_VERIFY_BYTES_PER_HOUR,
    auditHeadIntervalSeconds: e.AUDIT_HEAD_INTERVAL_SECONDS,
    textExtraction: {
      timeoutSeconds: e.TEXT_EXTRACTION_TIMEOUT_SECONDS,
      memoryMb: e.TEXT_EXTRACTION_MEMORY_MB,
      maxPages: e.TEXT_EXTRACTION_MAX_PAGES,
    },
    archiveRetrievalDelaySeconds: e.ARCHIVE_RETRIEVAL_DELAY_SECONDS,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    ...overrides,
  };
}
