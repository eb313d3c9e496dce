/**
 * Prometheus metrics: what an installation's IT people watch across its app servers and workers. Counters are
 * kept per process and counted where things happen (features call the small functions below); the figures that
 * live in the database (job queues, audit head signing) are read when Prometheus scrapes, at most every few
 * seconds, through readers the process registers (platform code never imports features).
 *
 * No label ever carries an organization, a user, an id, an email or a path: HTTP requests are labelled by the
 * route's pattern (`/_api/nodes/:id`, never the URL asked for), every other label comes from a fixed list.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import client from 'prom-client';

/** Counters, histograms and the process's default metrics: one set per process, whatever apps it builds. */
const shared = new client.Registry();
let defaultsStarted = false;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
type Series = { labels: Record<string, string>; buckets: Float64Array; sum: number; count: number };

/**
 * The request histogram, kept lean: prom-client's Histogram checks and hashes its labels on every observation,
 * which costs a request more than the rest of this hook. Here an observation is two map lookups, a bucket scan
 * and three additions, with nothing allocated; the text format is built only when Prometheus scrapes.
 */
class RequestHistogram {
  readonly name = 'strongroom_http_request_duration_seconds';
  readonly help = 'HTTP requests answered, by method, route pattern and status class (its _count is the request count)';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** route → method → one series per status class. */
  private readonly series = new Map<string, Map<string, Array<Series | undefined>>>();

  observe(method: string, route: string, statusIndex: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let byClass = byMethod.get(method);
    if (!byClass) byMethod.set(method, (byClass = []));
    let s = byClass[statusIndex];
    if (!s) {
      s = {
        labels: { method, route, status_class: STATUS_CLASSES[statusIndex]! },
        buckets: new Float64Array(HTTP_BUCKETS.length),
        sum: 0,
        count: 0,
      };
      byClass[statusIndex] = s;
    }
    for (let i = 0; i < HTTP_BUCKETS.length; i++) {
      if (seconds <= HTTP_BUCKETS[i]!) {
        s.buckets[i]! += 1;
        break;
      }
    }
    s.sum += seconds;
    s.count += 1;
  }

  /** What prom-client's registry renders: cumulative buckets, +Inf, _sum and _count per series. */
  get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const byMethod of this.series.values()) {
      for (const byClass of byMethod.values()) {
        for (const s of byClass) {
          if (!s) continue;
          let cumulative = 0;
          HTTP_BUCKETS.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ labels: { ...s.labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
          });
          values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
          values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
          values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
        }
      }
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }
}
const httpDuration = new RequestHistogram();
shared.registerMetric(httpDuration as unknown as client.Metric);
const httpErrors = new client.Counter({
  name: 'strongroom_http_server_errors_total',
  help: 'HTTP requests answered with a 5xx status, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  registers: [shared],
});
const uploadBytes = new client.Counter({
  name: 'strongroom_upload_bytes_total',
  help: 'Bytes of uploads completed (stored and recorded as a file version)',
  registers: [shared],
});
const uploadsCompleted = new client.Counter({
  name: 'strongroom_uploads_completed_total',
  help: 'Uploads completed',
  registers: [shared],
});
const vaultTransfers = new client.Counter({
  name: 'strongroom_vault_transfers_total',
  help: "Vault transfer runs by result: 'completed' (certificate written) or 'failed' (retried later)",
  labelNames: ['result'] as const,
  registers: [shared],
});
const vaultVerifications = new client.Counter({
  name: 'strongroom_vault_verifications_total',
  help: "Vault objects re-read by the continuous verification, by result: 'ok' or 'failed'",
  labelNames: ['result'] as const,
  registers: [shared],
});
const throttleRefusals = new client.Counter({
  name: 'strongroom_throttle_refusals_total',
  help: 'Requests refused by a rate limit or lock (429), by limiter',
  labelNames: ['limiter'] as const,
  registers: [shared],
});

/** The methods a label may name; anything else (a 404 for an odd method) is OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The label of requests that matched no route (their URL is never a label). */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Records one answered request: one histogram observation (and a counter for a 5xx). `route` is the route's
 * pattern as declared, undefined when no route matched; `seconds` is how long the answer took.
 */
export function observeHttpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  const m = METHODS.has(method) ? method : 'OTHER';
  const r = route ?? UNMATCHED_ROUTE;
  const statusIndex = Math.min(4, Math.max(0, Math.floor(status / 100) - 1));
  httpDuration.observe(m, r, statusIndex, seconds);
  if (statusIndex === 4) httpErrors.inc({ method: m, route: r });
}

/** An upload completed with this many bytes. */
export function countUploadCompleted(bytes: number): void {
  uploadsCompleted.inc();
  uploadBytes.inc(bytes);
}

export function countVaultTransfer(result: 'completed' | 'failed'): void {
  vaultTransfers.inc({ result });
}

export function countVaultVerification(result: 'ok' | 'failed'): void {
  vaultVerifications.inc({ result });
}

/** A request refused by the named limiter (a fixed name such as 'login-ip', never the key it counts under). */
export function countThrottleRefusal(limiter: string): void {
  throttleRefusals.inc({ limiter });
}

/** A queue's jobs as the scrape reports them. */
export type QueueStat = { queue: string; waiting: number; deferred: number; active: number; oldestWaitingSeconds: number };

/** The signing of audit chain heads, in seconds (null: nothing of the kind exists yet). */
type SigningHeadAges = { newestSignedSeconds: number | null; oldestUnsignedSeconds: number | null };

/** The connection pool as node-postgres keeps it (PGlite's pool is its one connection). */
type PoolLike = { totalCount: number; idleCount: number; waitingCount: number; options: { max?: number } };

export type MetricsSources = {
  pool: PoolLike;
  queues: () => Promise<QueueStat[]>;
  signingHeads: () => Promise<SigningHeadAges>;
  /** Told when a database reader fails; the scrape then answers without those figures. */
  onReadError: (err: unknown, what: string) => void;
};

/** How long figures read from the database serve scrapes (several Prometheus servers, or a dashboard, at once). */
const READ_CACHE_MS = 5000;

function cached<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > READ_CACHE_MS) {
      const value = read();
      last = { at: Date.now(), value };
      // A failed read is not kept: the next scrape tries again.
      value.catch(() => {
        if (last?.value === value) last = null;
      });
    }
    return last.value;
  };
}

export type Metrics = { contentType: string; render(): Promise<string> };

/** The metrics of one app or worker: the process's counters and the figures of its database, read at scrape time. */
export function createMetrics(sources: MetricsSources): Metrics {
  if (!defaultsStarted) {
    defaultsStarted = true;
    client.collectDefaultMetrics({ register: shared });
  }
  const own = new client.Registry();
  const queues = cached(sources.queues);
  const heads = cached(sources.signingHeads);
  const pool = sources.pool;

  const gauge = (name: string, help: string, collect: (g: client.Gauge) => void | Promise<void>, labelNames: string[] = []) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [own],
      async collect() {
        await collect(this);
      },
    });
  gauge('strongroom_db_pool_connections', 'Database connections open in the pool', (g) => g.set(pool.totalCount));
  gauge('strongroom_db_pool_idle_connections', 'Database connections open and idle', (g) => g.set(pool.idleCount));
  gauge('strongroom_db_pool_waiting_requests', 'Queries waiting for a free database connection', (g) => g.set(pool.waitingCount));
  gauge('strongroom_db_pool_max_connections', 'The most connections the pool opens', (g) => g.set(pool.options.max ?? 10));

  const perQueue = (name: string, help: string, pick: (q: QueueStat) => number) =>
    gauge(
      name,
      help,
      async (g) => {
        g.reset();
        const stats = await queues().catch((err: unknown) => {
          sources.onReadError(err, 'job queues');
          return [];
        });
        for (const q of stats) g.set({ queue: q.queue }, pick(q));
      },
      ['queue'],
    );
  perQueue('strongroom_job_queue_waiting', 'Jobs due and waiting for a runner (new or to retry), per queue', (q) => q.waiting);
  perQueue(
    'strongroom_job_queue_deferred',
    'Jobs waiting for a later start (scheduled, or a retry not yet due), per queue',
    (q) => q.deferred,
  );
  perQueue('strongroom_job_queue_active', 'Jobs being run, per queue', (q) => q.active);
  perQueue(
    'strongroom_job_queue_oldest_waiting_seconds',
    'How long the longest-waiting due job has waited for a runner, per queue (0 when none waits)',
    (q) => q.oldestWaitingSeconds,
  );

  const headGauge = (name: string, help: string, pick: (a: SigningHeadAges) => number | null) =>
    gauge(name, help, async (g) => {
      g.reset();
      const ages = await heads().catch((err: unknown) => {
        sources.onReadError(err, 'audit head signing');
        return null;
      });
      const value = ages ? pick(ages) : null;
      if (value !== null) g.set(value);
    });
  headGauge(
    'strongroom_audit_signed_head_age_seconds',
    'Seconds since the newest audit chain head was signed into the write-once store (any organization)',
    (a) => a.newestSignedSeconds,
  );
  headGauge(
    'strongroom_audit_oldest_unsigned_entry_age_seconds',
    'Seconds the oldest audit entry not yet covered by a signed head has waited (0 when every chain is signed)',
    (a) => a.oldestUnsignedSeconds ?? 0,
  );

  const registry = client.Registry.merge([shared, own]);
  return { contentType: registry.contentType, render: () => registry.metrics() };
}

/** Whether an Authorization header carries the bearer token, compared in constant time. */
export function bearerTokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  // Hashing first gives both sides one length, so the comparison says nothing about the token's length either.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!), digest(token));
}
