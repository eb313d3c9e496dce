/**
 * Durable background jobs in PostgreSQL, through pg-boss 12.
 *
 * Every statement pg-boss runs goes through the pool under the app's Kysely (never a connection of its own):
 * on PGlite that pool is the one connection there is, so pg-boss queues behind the app's transactions instead
 * of running inside or beside them. A job is enqueued inside the caller's transaction (`enqueue(trx, ...)`), so
 * it exists exactly when the change that needs it commits: a rolled-back change leaves no job, and a crash
 * after the commit leaves a job that runs once the app is back.
 *
 * Modes:
 * - 'embedded' (default): this process runs the workers (polling), pg-boss maintenance and cron schedules.
 * - 'off': jobs are only enqueued here; another process runs them (or a test calls runDueJobs()).
 *
 * Handlers must be idempotent: a job may run again after a crash or a failure (at-least-once delivery).
 *
 * A job whose process died (kill -9, power loss) while running it stays 'active' in pg-boss's table. It is
 * taken back and run again promptly:
 * - on embedded PGlite, at start: one process owns that database (the DATA_DIR lock), so every job still
 *   active then was left by a dead process, and it is failed into its retry at once (reclaimAbandoned);
 * - on PostgreSQL, where an active job may belong to a live worker elsewhere, by heartbeats: a running job's
 *   heartbeat is refreshed every heartbeatSeconds / 2, and the supervisor of any instance that runs jobs
 *   (checking every SUPERVISE_SECONDS) fails a job whose heartbeat is older than heartbeatSeconds into its
 *   retry. expireInSeconds stays as the outer bound of one run.
 */
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Executor } from '../db/database.js';
import type { QueueStat } from '../metrics.js';

/** pg-boss's database port: one statement (or a parameterless multi-statement block) at a time. */
type BossDatabase = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

export type JobRunnerMode = 'embedded' | 'off';

type JobMeta = { id: string; retryCount: number };

export type JobDefinition<T extends object = object> = {
  name: string;
  handler: (data: T, meta: JobMeta) => Promise<void>;
  /** Cron expression (UTC) on which the embedded runner enqueues the job with `{}` as data. */
  cron?: string;
  /** Retries after the first failure (default 8), with exponential backoff from retryDelaySeconds (default 30). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How often an idle embedded worker looks for work (default 5 s). */
  pollingIntervalSeconds?: number;
  /** Longest a job may run before it counts as failed (default 30 minutes). */
  expireInSeconds?: number;
  /**
   * A running job whose heartbeat is older than this (seconds, at least 10) is taken to belong to a dead
   * process and is retried (default 30). Short means a prompt retry after a crash, and a repeat of the work
   * when one heartbeat was held up for that long: only for jobs whose repeat costs nothing.
   */
  heartbeatSeconds?: number;
};

export type JobQueueOptions = {
  mode: JobRunnerMode;
  backend: 'pglite' | 'postgres';
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  /** The schema pg-boss keeps its tables in (default 'pgboss'). */
  schema?: string;
};

export type RunResult = { completed: number; failed: number };

const DAY = 86_400;
/** How often pg-boss's supervisor checks running jobs' heartbeats and expiry (seconds). */
const SUPERVISE_SECONDS = 10;
/** Why a job left active by a dead process was failed into its retry (kept in the job's output). */
const ABANDONED_MESSAGE = 'the process running this job stopped before it finished';

/**
 * pg-boss's own statements, on a connection of the app's pool. Raw node-postgres, not Kysely: pg-boss runs
 * parameterless multi-statement blocks (BEGIN; lock; ...; COMMIT) and reads the rows of every statement, which
 * Kysely does not return. A failed block is rolled back before the connection goes back to the pool.
 */
function poolDatabase(pool: pg.Pool): BossDatabase {
  return {
    async executeSql(text, values) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // An array of results for a multi-statement block; pg-boss unwraps it.
        return (await client.query(text, values ?? [])) as unknown as { rows: unknown[] };
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.release(broken);
      }
    },
  };
}

/** Statements inside the caller's transaction (without the app's camelCase plugin: pg-boss reads its own column names). */
function transactionDatabase(trx: Executor): BossDatabase {
  const raw = trx.withoutPlugins();
  return {
    async executeSql(text, values) {
      const result = await raw.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<never>>();
  private state: 'new' | 'started' | 'stopped' = 'new';

  constructor(
    private readonly database: Pick<DatabaseHandle, 'pool'>,
    private readonly options: JobQueueOptions,
  ) {
    const embedded = options.mode === 'embedded';
    this.boss = new PgBoss({
      db: poolDatabase(database.pool),
      backend: options.backend,
      schema: options.schema ?? 'pgboss',
      migrate: true,
      supervise: embedded,
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
      schedule: embedded,
      registerInstance: false,
      openTelemetry: { enabled: false },
    });
    this.boss.on('error', (err) => options.log.error({ err }, 'job queue error'));
    this.boss.on('warning', (warning) => options.log.warn({ warning }, 'job queue warning'));
  }

  get mode(): JobRunnerMode {
    return this.options.mode;
  }

  /** The names of the defined jobs (their queues). */
  names(): string[] {
    return [...this.definitions.keys()];
  }

  /** Declares a job; all definitions come before start(). */
  define<T extends object>(definition: JobDefinition<T>): void {
    if (this.state !== 'new') throw new Error(`Job ${definition.name} defined after the queue started`);
    if (this.definitions.has(definition.name)) throw new Error(`Job ${definition.name} defined twice`);
    this.definitions.set(definition.name, definition as JobDefinition<never>);
  }

  /** Installs or upgrades pg-boss's tables, creates the queues and, when embedded, starts workers and schedules. */
  async start(): Promise<void> {
    if (this.state !== 'new') return;
    await this.boss.start();
    for (const def of this.definitions.values()) {
      const settings = {
        retryLimit: def.retryLimit ?? 8,
        retryDelay: def.retryDelaySeconds ?? 30,
        retryBackoff: true,
        retryDelayMax: 6 * 3600,
        expireInSeconds: def.expireInSeconds ?? 1800,
        heartbeatSeconds: def.heartbeatSeconds ?? 30,
        // A job waits up to a year for a runner (an app that was down a long time still cleans up) ...
        retentionSeconds: 365 * DAY,
        // ... and is kept a week after it finished, for inspection.
        deleteAfterSeconds: 7 * DAY,
      };
      // createQueue leaves an existing queue as it was; the update brings it to these settings (new jobs copy them).
      await this.boss.createQueue(def.name, settings);
      await this.boss.updateQueue(def.name, settings);
    }
    if (this.options.backend === 'pglite') await this.reclaimAbandoned();
    this.state = 'started';
    if (this.options.mode !== 'embedded') return;
    for (const def of this.definitions.values()) {
      await this.boss.work<object>(def.name, { pollingIntervalSeconds: def.pollingIntervalSeconds ?? 5, batchSize: 1 }, async (jobs) => {
        for (const job of jobs) await this.runOne(def, job);
      });
      if (def.cron) await this.boss.schedule(def.name, def.cron, {}, { tz: 'UTC', missed: 'once' });
    }
  }

  /**
   * Enqueues a job inside the caller's transaction: it commits or rolls back with the change.
   * Pass ctx.db to enqueue outside a transaction.
   */
  async enqueue<T extends object>(trx: Executor, name: string, data: T, options: { startAfterSeconds?: number } = {}): Promise<string> {
    if (this.state !== 'started') throw new Error('The job queue is not running');
    if (!this.definitions.has(name)) throw new Error(`Unknown job ${name}`);
    const id = await this.boss.send(name, data, {
      db: transactionDatabase(trx),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    });
    if (!id) throw new Error(`Job ${name} was not enqueued`);
    return id;
  }

  /**
   * Enqueues a job that starts `seconds` from now, unless this `seconds`-long slot of time has its job already
   * (whoever enqueued it, in any process): answers whether this call enqueued it. A job that enqueues its own
   * successor this way runs about every `seconds`, once however many processes keep it going.
   */
  async enqueueOncePerSlot<T extends object>(db: Executor, name: string, data: T, seconds: number): Promise<boolean> {
    if (this.state !== 'started') throw new Error('The job queue is not running');
    if (!this.definitions.has(name)) throw new Error(`Unknown job ${name}`);
    const id = await this.boss.sendThrottled(name, data, { db: transactionDatabase(db), startAfter: seconds }, seconds);
    return id !== null;
  }

  /**
   * Runs every job that is due now, in this process, and returns when none is left (tests; a CLI). Jobs that
   * fail are retried later per their queue's backoff, not again in this call.
   */
  async runDueJobs(names?: string[]): Promise<RunResult> {
    if (this.state !== 'started') throw new Error('The job queue is not running');
    const result: RunResult = { completed: 0, failed: 0 };
    for (const def of this.definitions.values()) {
      if (names && !names.includes(def.name)) continue;
      const seen = new Set<string>();
      for (;;) {
        const jobs = await this.boss.fetch<object>(def.name, { batchSize: 20 });
        if (jobs.length === 0) break;
        let fresh = 0;
        for (const job of jobs) {
          if (!seen.has(job.id)) fresh += 1;
          seen.add(job.id);
          const attempt = { id: job.id, retryCount: job.retryCount };
          // The heartbeat a worker would send, so a supervisor elsewhere does not take a long run for a dead one.
          const beat = setInterval(
            () => {
              this.boss
                .touch(def.name, attempt)
                .catch((err: unknown) => this.options.log.warn({ err, job: def.name }, 'job heartbeat failed'));
            },
            ((def.heartbeatSeconds ?? 30) * 1000) / 2,
          );
          try {
            await this.runOne(def, job);
            await this.boss.complete(def.name, attempt);
            result.completed += 1;
          } catch (err) {
            await this.boss.fail(def.name, attempt, { message: (err as Error).message });
            result.failed += 1;
          } finally {
            clearInterval(beat);
          }
        }
        if (fresh === 0) break;
      }
    }
    return result;
  }

  /** Jobs of a queue that are waiting or running (tests and readiness checks). */
  async pendingCount(name: string): Promise<number> {
    const jobs = await this.boss.findJobs(name, { limit: 100_000 });
    return jobs.filter((j) => j.state === 'created' || j.state === 'retry' || j.state === 'active').length;
  }

  /**
   * Every defined queue's unfinished jobs, for the metrics: due and waiting, deferred (a later start or a retry
   * not yet due), being run, and how long the longest-waiting due job has waited since it became due. One
   * statement over pg-boss's job table, reading only unfinished jobs.
   */
  async queueStats(): Promise<QueueStat[]> {
    const schema = this.options.schema ?? 'pgboss';
    const names = this.names();
    const { rows } = await this.database.pool.query<{
      name: string;
      waiting: string;
      deferred: string;
      active: string;
      oldest: string | null;
    }>(
      `select name,
              count(*) filter (where state in ('created', 'retry') and start_after <= now()) as waiting,
              count(*) filter (where state in ('created', 'retry') and start_after > now()) as deferred,
              count(*) filter (where state = 'active') as active,
              extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now())) as oldest
         from ${schema}.job
        where name = any($1) and state in ('created', 'retry', 'active')
        group by name`,
      [names],
    );
    const byName = new Map(rows.map((r) => [r.name, r]));
    return names.map((queue) => {
      const r = byName.get(queue);
      return {
        queue,
        waiting: Number(r?.waiting ?? 0),
        deferred: Number(r?.deferred ?? 0),
        active: Number(r?.active ?? 0),
        oldestWaitingSeconds: Math.max(0, Number(r?.oldest ?? 0)),
      };
    });
  }

  /**
   * Embedded PGlite only, before any worker starts: one process owns the database, so a job still 'active' now
   * was being run by a process that died. Each is failed into its retry through pg-boss (the attempt counts,
   * so a job that itself kills the process ends up failed for good after its retries, not in a crash loop),
   * and runs again after its queue's first retry delay. The ids are read from pg-boss's job table (the
   * parent of every queue's table), which pg-boss offers no call for.
   */
  async reclaimAbandoned(): Promise<number> {
    let reclaimed = 0;
    const schema = this.options.schema ?? 'pgboss';
    for (const name of this.definitions.keys()) {
      const { rows } = await this.database.pool.query<{ id: string; retry_count: number }>(
        `select id, retry_count from ${schema}.job where name = $1 and state = 'active'`,
        [name],
      );
      if (rows.length === 0) continue;
      const ids = rows.map((r) => r.id);
      // Fenced to the attempt that was running, as a worker's own fail() is.
      await this.boss.fail(
        name,
        rows.map((r) => ({ id: r.id, retryCount: r.retry_count })),
        { message: ABANDONED_MESSAGE },
      );
      this.options.log.warn({ job: name, jobIds: ids }, 'jobs left running by a stopped process will run again');
      reclaimed += ids.length;
    }
    return reclaimed;
  }

  private async runOne(def: JobDefinition<never>, job: { id: string; data: object; retryCount?: number }): Promise<void> {
    try {
      await def.handler(job.data as never, { id: job.id, retryCount: job.retryCount ?? 0 });
    } catch (err) {
      this.options.log.error({ err, job: def.name, jobId: job.id }, 'job failed; it will be retried');
      throw err;
    }
  }

  /** Stops workers and timers, letting a running job finish (up to 20 s). The database stays open. */
  async stop(): Promise<void> {
    if (this.state !== 'started') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopped';
    await this.boss.stop({ graceful: true, timeout: 20_000, close: false });
  }
}
