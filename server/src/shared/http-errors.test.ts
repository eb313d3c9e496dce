import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import type { DatabaseHandle } from '../platform/db/database.js';
import { testDatabase } from '../../test/helpers.js';
import { registerErrorHandler } from './http-errors.js';

// The driver's own errors, raised by the database itself (PGlite or PostgreSQL), reach the one handler.
describe('error handler: database races', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await testDatabase();
    app = Fastify({ logger: false });
    registerErrorHandler(app);
    const raise = (state: string, message: string) => async () => {
      await sql.raw(`do $$ begin raise exception using errcode = '${state}', message = '${message}'; end $$`).execute(database.db);
      return { ok: true };
    };
    app.get('/serialization', raise('40001', 'could not serialize access due to concurrent update'));
    app.get('/deadlock', raise('40P01', 'deadlock detected'));
    app.get('/locked', raise('55P03', 'could not obtain lock on row in relation "nodes"'));
    app.get('/other', raise('XX000', 'internal detail that must not leak'));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it.each([
    ['/serialization', MSG.concurrentOperation, 'RACE'],
    ['/deadlock', MSG.concurrentOperation, 'RACE'],
    ['/locked', MSG.resourceLocked, 'LOCKED'],
  ])('%s answers 409 with the reason the client retries on, and Retry-After', async (url, text, reason) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ error: text, code: 'CONFLICT_ERROR', details: { reason, retryAfterSeconds: 1 } });
    // Clients that predate the reason still retry on these words.
    expect(text).toMatch(/concurrent|locked/i);
  });

  it('any other database error stays a 500 that leaks nothing', async () => {
    const res = await app.inject({ method: 'GET', url: '/other' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: MSG.internalError, code: 'INTERNAL_ERROR' });
    expect(res.body).not.toContain('internal detail');
  });
});

// Text PostgreSQL cannot store, should any reach it, is the client's fault: a 400, never a 500.
describe('error handler: text the database refuses', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await testDatabase();
    app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/nul-text', async () => (await sql`select ${'a\u0000b'}::text as v`.execute(database.db)).rows);
    app.get('/nul-jsonb', async () => (await sql`select ${JSON.stringify({ a: 'a\u0000b' })}::jsonb as v`.execute(database.db)).rows);
    app.get(
      '/lone-surrogate-jsonb',
      async () => (await sql`select ${JSON.stringify({ a: '\ud800' })}::jsonb as v`.execute(database.db)).rows,
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it.each(['/nul-text', '/nul-jsonb', '/lone-surrogate-jsonb'])('%s answers 400 with the text rule', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: MSG.textNotAllowed, code: 'VALIDATION_ERROR' });
  });
});
