/**
 * Answers whose largest part is already JSON text (a matter's tree, written node by node by the database). The
 * rest of the answer is checked and encoded by its schema as every other answer is; the text is put in as it is.
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** `{ [key]: <arrayText>, ...rest }` as JSON text, rest encoded through its schema (unknown fields dropped). */
export function jsonWithArrayText<S extends z.ZodObject>(schema: S, rest: z.output<S>, key: string, arrayText: string): string {
  const head = JSON.stringify(z.encode(schema, rest));
  return `{${JSON.stringify(key)}:${arrayText}${head === '{}' ? '}' : `,${head.slice(1)}`}`;
}

/** Sends JSON text as the answer: a string with a JSON type is sent as it is, not encoded again. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
