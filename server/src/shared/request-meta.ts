import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from './context.js';

export function requestMeta(request: FastifyRequest): RequestMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 300) : null };
}
