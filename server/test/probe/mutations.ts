/**
 * Hostile variants of a valid request, derived from the operation's OpenAPI description: broken JSON, wrong
 * content types, each body field (and the first item of an array field) with wrong types, 1 MB text, NUL and an
 * unpaired surrogate, 2,000 levels of nesting, unknown fields, required fields left out, bad uuids, negative,
 * non-finite and huge numbers; the same for query parameters; and for state-changing /_api calls a foreign
 * Origin, also behind a percent-encoded path.
 */
import type { JsonSchema, Operation } from './openapi.js';
import { isUuid, nonNull, typesOf } from './openapi.js';
import type { ProbeRequest, QueryValue } from './request.js';
import { encodeQuery } from './request.js';

export type Mutation = { label: string; req: ProbeRequest; /** The answer must be a refusal (4xx). */ mustRefuse?: boolean };

const MB_STRING = 'a'.repeat(1_000_000);
const NUL = 'probe\u0000text';
const SURROGATE = 'probe\ud800text';
const DEPTH = 2000;

function deepObject(depth = DEPTH): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
function deepArray(depth = DEPTH): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Numbers JSON.stringify cannot write (Infinity, 2^53+2 exactly): a marker replaced in the serialized text. */
const RAW = '__probe_raw__:';
const raw = (text: string) => `${RAW}${text}`;
function serialize(body: unknown): string {
  return JSON.stringify(body).replace(new RegExp(`"${RAW}([^"]*)"`, 'g'), '$1');
}

type Path = Array<string | number>;

function setAt(root: unknown, path: Path, value: unknown, remove = false): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cur: Record<string | number, unknown> = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    if (cur[k] === undefined || cur[k] === null || typeof cur[k] !== 'object') cur[k] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[k] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (remove) delete cur[last];
  else cur[last] = value;
  return copy;
}

type Field = { path: Path; schema: JsonSchema; required: boolean };

/** Top-level fields, plus the fields of the first item of array-of-object fields and of nested objects. */
function fieldsOf(schema: JsonSchema | undefined, base: Path = [], depth = 0): Field[] {
  if (!schema?.properties || depth > 2) return [];
  const out: Field[] = [];
  for (const [name, s] of Object.entries(schema.properties)) {
    const path = [...base, name];
    out.push({ path, schema: s, required: (schema.required ?? []).includes(name) });
    const concrete = nonNull(s);
    if (concrete.properties) out.push(...fieldsOf(concrete, path, depth + 1));
    if (concrete.items?.properties) out.push(...fieldsOf(concrete.items, [...path, 0], depth + 1));
  }
  return out;
}

/** Values of the wrong type for the field: a sample of the types it does not accept. */
function wrongTypes(s: JsonSchema): Array<[string, unknown]> {
  const types = typesOf(s);
  const out: Array<[string, unknown]> = [];
  if (!types.has('number') && !types.has('integer')) out.push(['a number', 12345]);
  if (!types.has('string')) out.push(['a string', 'not-the-right-type']);
  if (!types.has('boolean')) out.push(['a boolean', true]);
  if (!types.has('null')) out.push(['null', null]);
  if (!types.has('object')) out.push(['an object', { probe: 1 }]);
  if (!types.has('array')) out.push(['an array', ['probe']]);
  // Three of them are enough to see the type check at work.
  return out.slice(0, 3);
}

const BAD_UUIDS: Array<[string, string]> = [
  ['a bad uuid', 'not-a-uuid'],
  ['a uuid-shaped non-hex value', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'],
  ['a uuid with SQL after it', "00000000-0000-4000-8000-000000000000' OR '1'='1"],
  ['the nil uuid', '00000000-0000-0000-0000-000000000000'],
];

const BAD_NUMBERS: Array<[string, unknown]> = [
  ['a negative number', -1],
  ['zero', 0],
  ['a fraction', 1.5],
  ['a huge number', 1e308],
  ['2^53 + 2', raw('9007199254740994')],
  ['Infinity (1e999)', raw('1e999')],
  ['-Infinity (-1e999)', raw('-1e999')],
  ['a number in a string', '7'],
];

const QUERY_NUMBERS = ['-1', '0', '1.5', 'Infinity', 'NaN', '1e999', '99999999999999999999999', '0x10', ' 5 '];

function bodyMutations(op: Operation, sample: ProbeRequest): Mutation[] {
  const base = sample.body as Record<string, unknown>;
  const json = { 'content-type': 'application/json' };
  const withBody = (label: string, body: unknown): Mutation => ({
    label,
    req: { ...sample, body: undefined, rawBody: serialize(body), headers: { ...sample.headers, ...json } },
  });
  const rawJson = (label: string, text: string | Buffer, headers: Record<string, string> = json): Mutation => ({
    label,
    req: { ...sample, body: undefined, rawBody: text, headers: { ...sample.headers, ...headers } },
  });
  const text = serialize(base);
  const out: Mutation[] = [
    rawJson('malformed JSON: truncated', text.slice(0, Math.max(1, Math.floor(text.length / 2)))),
    rawJson('malformed JSON: not JSON', 'nul'),
    rawJson('malformed JSON: single quotes', text.replace(/"/g, "'")),
    rawJson('malformed JSON: invalid UTF-8', Buffer.concat([Buffer.from('{"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('":1}')])),
    rawJson('empty body declared as JSON', ''),
    rawJson('JSON: top-level array', '[]'),
    rawJson('JSON: top-level string', '"probe"'),
    rawJson('JSON: top-level null', 'null'),
    rawJson('JSON: __proto__ key', text.replace(/^\{/, '{"__proto__":{"role":"admin","isAdmin":true},')),
    rawJson('JSON: constructor.prototype key', text.replace(/^\{/, '{"constructor":{"prototype":{"isAdmin":true}},')),
    rawJson('JSON: 2,000 nested arrays as the body', serialize(deepArray())),
    rawJson('content type text/plain', text, { 'content-type': 'text/plain' }),
    rawJson('content type form-urlencoded', encodeQuery(Object.fromEntries(Object.entries(base ?? {}).map(([k, v]) => [k, String(v)]))), {
      'content-type': 'application/x-www-form-urlencoded',
    }),
    rawJson('content type multipart/form-data', `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n`, {
      'content-type': 'multipart/form-data; boundary=x',
    }),
    rawJson('content type application/xml', '<a>1</a>', { 'content-type': 'application/xml' }),
    rawJson('content type json with a foreign charset', text, { 'content-type': 'application/json; charset=utf-16' }),
    withBody('an unknown extra field', { ...base, probeExtraField: 'x' }),
    withBody('an unknown field holding 2,000 levels', { ...base, probeExtraField: deepObject() }),
  ];
  for (const f of fieldsOf(op.body)) {
    const name = f.path.join('.');
    const s = nonNull(f.schema);
    const types = typesOf(f.schema);
    const set = (label: string, v: unknown) => withBody(`${name}: ${label}`, setAt(base, f.path, v));
    if (f.required)
      out.push({
        label: `${name}: missing`,
        req: {
          ...sample,
          body: undefined,
          rawBody: serialize(setAt(base, f.path, undefined, true)),
          headers: { ...sample.headers, ...json },
        },
      });
    for (const [label, v] of wrongTypes(f.schema)) out.push(set(label, v));
    out.push(set('2,000 levels of nesting', deepObject()));
    if (types.has('string') || s.enum) {
      out.push(set('1 MB of text', MB_STRING), set('text with NUL', NUL), set('text with an unpaired surrogate', SURROGATE));
      if (s.enum) out.push(set('a value outside the list', 'NOT_IN_THE_LIST'));
    }
    if (isUuid(f.schema)) for (const [label, v] of BAD_UUIDS) out.push(set(label, v));
    if (types.has('number') || types.has('integer')) for (const [label, v] of BAD_NUMBERS) out.push(set(label, v));
    if (
      types.has('object') &&
      (s.additionalProperties === undefined || typeof s.additionalProperties === 'object' || s.additionalProperties === true)
    ) {
      // A free-form object (a record): hostile content inside it.
      out.push(
        set('an entry holding 2,000 levels', { deep: deepObject() }),
        set('an entry holding 2,000 nested arrays', { deep: deepArray() }),
        set('an entry with NUL', { note: NUL, [NUL]: 1 }),
        set('an entry with an unpaired surrogate', { note: SURROGATE, [SURROGATE]: 1 }),
        set('an entry of 1 MB', { note: MB_STRING }),
      );
    }
    if (types.has('array')) out.push(set('an array of 2,000 nested arrays', [deepArray()]), set('an array with NUL', [NUL]));
  }
  return out;
}

function queryMutations(op: Operation, sample: ProbeRequest, names: string[]): Mutation[] {
  const q = (sample.query ?? {}) as Record<string, QueryValue>;
  const withQuery = (label: string, query: Record<string, QueryValue>, rawQuery?: string): Mutation => ({
    label,
    req: { ...sample, query, rawQuery },
  });
  const without = (name: string) => Object.fromEntries(Object.entries(q).filter(([k]) => k !== name));
  const out: Mutation[] = [
    withQuery('an unknown query parameter with NUL', q, 'probeExtra=%00'),
    withQuery('a query parameter nested 2,000 levels', q, `probe${'[a]'.repeat(DEPTH)}=1`),
  ];
  for (const name of names) {
    const param = op.parameters.find((p) => p.name === name);
    const schema = param?.schema ?? {};
    const types = typesOf(schema);
    const rest = without(name);
    const set = (label: string, rawValue: string) => withQuery(`${name}: ${label}`, rest, `${encodeURIComponent(name)}=${rawValue}`);
    if (param?.required) out.push(withQuery(`${name}: missing`, rest));
    out.push(
      set('empty', ''),
      withQuery(`${name}: given twice`, { ...rest, [name]: [String(q[name] ?? 'x'), 'second'] }),
      withQuery(`${name}: bracket array`, rest, `${encodeURIComponent(name)}[]=x`),
      withQuery(`${name}: bracket object`, rest, `${encodeURIComponent(name)}[a]=x`),
      set('1 MB of text', MB_STRING),
      set('NUL', 'a%00b'),
      set('an unpaired surrogate (UTF-8 of U+D800)', 'a%ED%A0%80b'),
      set('invalid UTF-8', 'a%FF%FEb'),
      set('a broken percent escape', 'a%zz%'),
    );
    if (isUuid(schema) || /Id$|^s3Key$/.test(name)) for (const [label, v] of BAD_UUIDS) out.push(set(label, encodeURIComponent(v)));
    if (types.has('number') || types.has('integer') || /^(page|pageSize|limit|length|expires|partNumber)$/.test(name))
      for (const v of QUERY_NUMBERS) out.push(set(`number ${JSON.stringify(v)}`, encodeURIComponent(v)));
    if (schema.enum) out.push(set('a value outside the list', 'NOT_IN_THE_LIST'));
  }
  return out;
}

/** The sample's URL query as a map (for calls whose sample is a full URL, like presigned ones). */
function splitUrl(sample: ProbeRequest): { path?: string; query?: Record<string, QueryValue> } {
  if (!sample.url) return {};
  const u = new URL(sample.url, 'http://x');
  const query: Record<string, QueryValue> = {};
  u.searchParams.forEach((v, k) => (query[k] = v));
  return { path: u.pathname, query };
}

export function mutationsFor(op: Operation, sample: ProbeRequest): Mutation[] {
  const out: Mutation[] = [];
  const split = splitUrl(sample);
  // A presigned URL's own query is fuzzed as if declared.
  const base: ProbeRequest = split.path ? { ...sample, url: undefined, query: split.query } : sample;
  const pathFor = (m: Mutation): Mutation =>
    split.path ? { ...m, req: { ...m.req, url: undefined, pathOverride: m.req.pathOverride ?? split.path } } : m;
  if (op.body || (op.method !== 'GET' && sample.body !== undefined)) out.push(...bodyMutations(op, base));
  else if (op.method === 'POST') {
    out.push(
      {
        label: 'malformed JSON body on a call without one',
        req: { ...base, rawBody: '{"a":', headers: { 'content-type': 'application/json' } },
      },
      { label: 'text/plain body on a call without one', req: { ...base, rawBody: 'hello', headers: { 'content-type': 'text/plain' } } },
      {
        label: 'a 2,000-level JSON body on a call without one',
        req: { ...base, rawBody: serialize(deepObject()), headers: { 'content-type': 'application/json' } },
      },
    );
  }
  const queryNames = [...new Set([...op.parameters.filter((p) => p.in === 'query').map((p) => p.name), ...Object.keys(base.query ?? {})])];
  out.push(...queryMutations(op, base, queryNames));
  if (op.path.startsWith('/_api/') && op.method !== 'GET') {
    const evil = { origin: 'https://evil.example' };
    out.push(
      { label: 'a foreign Origin', req: { ...base, headers: { ...base.headers, ...evil } }, mustRefuse: true },
      {
        label: 'a foreign Origin on the percent-encoded path /%5Fapi',
        req: { ...base, headers: { ...base.headers, ...evil }, pathOverride: op.path.replace('/_api/', '/%5Fapi/') },
        mustRefuse: true,
      },
    );
  }
  if (split.path) {
    const p = split.path;
    // A signed URL must refuse any other key; a page path may answer the app shell.
    const signed = op.path.startsWith('/_objects/');
    out.push(
      { label: 'path with NUL', req: { ...base, pathOverride: `${p}%00` } },
      { label: 'path with an unpaired surrogate', req: { ...base, pathOverride: `${p}%ED%A0%80` } },
      { label: 'path with a broken percent escape', req: { ...base, pathOverride: `${p}%E0%A4%A` } },
      {
        label: 'path with ../ traversal',
        req: { ...base, pathOverride: p.replace(/[^/]+$/, '..%2F..%2F..%2Fetc%2Fpasswd') },
        mustRefuse: signed,
      },
      { label: 'path of 100 kB', req: { ...base, pathOverride: `${p}${'k'.repeat(100_000)}` }, mustRefuse: signed },
    );
  }
  return out.map(pathFor);
}
