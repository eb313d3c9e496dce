import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { APPROVAL_MSG, MSG, type ErrorReason } from '@strongroom/contracts';
import { redactUrl } from '../platform/http/redact-url.js';
import { ApprovalPending } from './approval-pending.js';
import { AppError } from './errors.js';

/**
 * The one error handler: typed errors answer with their text and code; validation failures with the
 * first message; a transaction that lost a race in PostgreSQL (serialization failure, deadlock, lock not
 * available) is a 409 the client retries (reason RACE or LOCKED); anything unexpected is logged and answered with a generic 500 that
 * leaks nothing.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // A governed call recorded for a second approver: accepted, nothing changed yet.
    if (err instanceof ApprovalPending) return reply.status(202).send(err.answer);
    if (err instanceof AppError) {
      if (err.code === 'RATE_LIMIT_EXCEEDED') {
        const retry = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
        if (retry) reply.header('retry-after', String(retry));
      }
      return reply.status(err.statusCode).send({
        error: err.message,
        code: err.code,
        ...(err.details !== undefined ? { details: err.details } : {}),
        ...(err.extra ?? {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => {
        const keys = (v.params as { keys?: string[] }).keys;
        const message = v.keyword === 'unrecognized_keys' && keys ? MSG.unknownFields(keys) : v.message;
        return { path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'), message };
      });
      return reply.status(400).send({ error: issues[0]?.message ?? MSG.invalidRequest, code: 'VALIDATION_ERROR', details: { issues } });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      return reply.status(415).send({ error: MSG.jsonOnly, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.status(413).send({ error: MSG.payloadTooLarge, code: 'PAYLOAD_TOO_LARGE' });
    }
    if (
      err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      (err as { type?: string }).type === 'entity.parse.failed' ||
      err instanceof SyntaxError
    ) {
      return reply.status(400).send({ error: MSG.invalidJson, code: 'VALIDATION_ERROR' });
    }
    // PostgreSQL's own race outcomes are not the client's fault and not a server failure: a retry succeeds.
    const sqlState = (err as { code?: unknown }).code;
    if (sqlState === '40001' || sqlState === '40P01' || sqlState === '55P03') {
      request.log.warn({ sqlState, url: redactUrl(request.url) }, 'transaction lost a race; the client is asked to retry');
      const reason: ErrorReason = sqlState === '55P03' ? 'LOCKED' : 'RACE';
      return reply
        .status(409)
        .header('retry-after', '1')
        .send({
          error: reason === 'LOCKED' ? MSG.resourceLocked : MSG.concurrentOperation,
          code: 'CONFLICT_ERROR',
          details: { reason, retryAfterSeconds: 1 },
        });
    }
    // Text PostgreSQL cannot store (NUL, broken UTF-16) or JSON nested past its limits is the client's input, not
    // a server failure. The request hooks refuse it first; this keeps any path that slips by a clear 400.
    if (
      sqlState === '22P05' ||
      sqlState === '22021' ||
      (sqlState === '22P02' && /unicode|surrogate/i.test(`${err.message} ${(err as { detail?: string }).detail ?? ''}`))
    ) {
      return reply.status(400).send({ error: MSG.textNotAllowed, code: 'VALIDATION_ERROR' });
    }
    // The approval rules' floor of two active administrators, held by the database whatever path changed a user.
    if (sqlState === 'SRA01') {
      return reply
        .status(409)
        .send({ error: APPROVAL_MSG.lastApprovers, code: 'CONFLICT_ERROR', details: { reason: 'SECOND_APPROVER_NEEDED' } });
    }
    if (sqlState === '54001') {
      return reply.status(400).send({ error: MSG.requestTooDeep, code: 'VALIDATION_ERROR' });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ error: err.message, code: 'VALIDATION_ERROR' });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: MSG.internalError, code: 'INTERNAL_ERROR' });
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send({ error: MSG.notFound, code: 'NOT_FOUND' });
  });
}
