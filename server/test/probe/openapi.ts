/**
 * The operations Strongroom publishes at GET /_api/openapi.json, as the security suites walk them: method,
 * path, query/path parameters and the JSON body's schema. Everything the suites probe comes from here, so a
 * new route is in the list the day it is registered.
 */
import type { TestApp } from '../helpers.js';

export type JsonSchema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  $ref?: string;
};

type Parameter = { name: string; in: 'query' | 'path' | 'header' | 'cookie'; required: boolean; schema: JsonSchema };

export type Operation = {
  /** "METHOD /path" exactly as the samples table keys it. */
  key: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
  bodyRequired: boolean;
};

/** The parts of an OpenAPI operation object the suites read. */
type OpenApiOperation = {
  parameters?: Array<Omit<Parameter, 'required'> & { required?: boolean }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
};

export async function loadOperations(t: TestApp): Promise<Operation[]> {
  const res = await t.app.inject({ method: 'GET', url: '/_api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const json = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters ?? []).map((p) => ({ ...p, required: !!p.required })),
        body: json,
        bodyRequired: !!op.requestBody?.required,
      });
    }
  }
  return ops;
}

/** The schema's types, looking through anyOf/oneOf (a nullable field is anyOf [T, null]). */
export function typesOf(s: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  if (!s) return out;
  if (typeof s.type === 'string') out.add(s.type);
  if (Array.isArray(s.type)) s.type.forEach((x) => out.add(x));
  for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) typesOf(sub).forEach((x) => out.add(x));
  if (s.enum && out.size === 0) out.add(typeof s.enum[0]);
  return out;
}

export function isUuid(s: JsonSchema | undefined): boolean {
  if (!s) return false;
  if (s.format === 'uuid') return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(isUuid);
}

/** The concrete schema of an object-ish field (the non-null branch of anyOf). */
export function nonNull(s: JsonSchema): JsonSchema {
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].filter((b) => !typesOf(b).has('null') || typesOf(b).size > 1);
  return branches.length === 1 ? branches[0]! : s;
}

/** Names that read as a reference to a stored row: *Id, *Ids, id, s3Key, or a uuid-formatted value. */
function looksLikeId(name: string, schema: JsonSchema | undefined): boolean {
  return /(^id$|Id$|Ids$|^s3Key$|^uploadId$)/.test(name) || isUuid(schema);
}

/** Every id-looking input of an operation, as "body.<name>", "query.<name>" or "path.<name>". */
export function idInputs(op: Operation): string[] {
  const out: string[] = [];
  for (const p of op.parameters) if (looksLikeId(p.name, p.schema) && (p.in === 'query' || p.in === 'path')) out.push(`${p.in}.${p.name}`);
  for (const [name, s] of Object.entries(op.body?.properties ?? {})) if (looksLikeId(name, s)) out.push(`body.${name}`);
  return out;
}
