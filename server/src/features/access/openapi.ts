/**
 * The OpenAPI document served at GET /_api/openapi.json, generated from the route declarations: each route's
 * schema gives its inputs, answers, operationId and summary, and its declared access (`config: { access }`)
 * gives the operation's security, its step-up and the refusals it can answer. Nothing here changes how a request
 * is validated or an answer serialized: the refusals are added to the document only.
 */
import type { FastifyDynamicSwaggerOptions, SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_VERSION, approvalRequiredResponse, errorResponse } from '@strongroom/contracts';
import type { AllowRule, RouteAccess, StepUpDeclaration } from '../../shared/route-access.js';

type JsonSchema = Record<string, unknown>;
/** A route's schema once its zod parts are JSON Schema, as the document is built from it. */
type DocSchema = FastifySchema & {
  hide?: boolean;
  description?: string;
  security?: Array<Record<string, string[]>>;
  response?: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
};

const ERROR_SCHEMA = 'Error';
const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } },
});

/**
 * The routes whose last path segment is a wildcard, as the document names the rest of the path. A path
 * parameter of OpenAPI holds no slash; these do, which `x-strongroom-wildcard` says.
 */
const WILDCARD_PARAMETERS: Record<string, { name: string; description: string }> = {
  '/_objects/*': {
    name: 'key',
    description: 'The object key the URL was signed for; it may contain slashes, sent as they are (not percent-encoded).',
  },
  '/*': {
    name: 'path',
    description: 'A page of the web app or one of its files; it may contain slashes, sent as they are.',
  },
};

function wildcardParameter(url: string): { url: string; params: JsonSchema } | null {
  if (!url.endsWith('*')) return null;
  const param = WILDCARD_PARAMETERS[url];
  if (!param) throw new Error(`${url}: name its wildcard in the OpenAPI document (WILDCARD_PARAMETERS)`);
  return {
    url: `${url.slice(0, -1)}:${param.name}`,
    params: {
      type: 'object',
      properties: { [param.name]: { type: 'string', description: param.description, 'x-strongroom-wildcard': true } },
      required: [param.name],
    },
  };
}

/** Who may call the operation, in OpenAPI's terms: no session, an optional one, or a session (and a step-up). */
function securityOf(access: RouteAccess | undefined): Array<Record<string, string[]>> {
  // A route that declares nothing is outside /_api (the guard refuses such a route inside it), where no session
  // is read.
  if (!access || access.who === 'public') return [];
  if (access.who === 'optional') return [{}, { session: [] }];
  const signedIn = access.stepUp ? [{ session: [], stepUp: [] }] : [{ session: [] }];
  // An API token of the route's scope serves where no step-up is asked for (a token never passes one).
  return access.tokenScope ? [...signedIn, { apiToken: [access.tokenScope] }] : signedIn;
}

function stepUpSentence(stepUp: StepUpDeclaration): string {
  const asked = [
    stepUp.flag ? `asked for while the organization's ${stepUp.flag} feature flag is on` : 'always asked for',
    stepUp.when ? ', and only for the requests it concerns (what is asked decides)' : '',
    stepUp.readOnly ? `; a request that changes nothing (a dry run) asks for ${stepUp.readOnly.operation} instead` : '',
  ].join('');
  const proof =
    stepUp.accepts === 'code'
      ? "a fresh 6-digit code of the user's own second-factor method (a system MFA token is refused)"
      : "a fresh 6-digit code of the user's second-factor method, or a system MFA token of this operation's class " +
        'from POST /_api/auth/verifySystemMfa';
  return (
    `Step-up ${stepUp.operation}, ${asked}. The X-MFA-Token header (else the body's, else the query's mfaToken) ` +
    `carries ${proof}. Without it the answer is 401 MFA_REQUIRED naming the operation.`
  );
}

function rulesOf(access: RouteAccess): AllowRule['rule'][] {
  if (!('allow' in access) || access.allow === undefined) return [];
  return typeof access.allow === 'string' ? [access.allow] : access.allow.map((r) => r.rule);
}

/**
 * Names that read as a reference to a stored row of the caller's organization (an organization id is checked
 * against the session instead, a 403). Only a required one makes a 404 likely: optional ids are filters or notes.
 */
const ID_NAME = /(^id$|(?<!^organization)Id$|Ids$|^s3Key$)/;

function looksUpIds(...schemas: unknown[]): boolean {
  return schemas.some((s) => ((s as { required?: string[] } | undefined)?.required ?? []).some((name) => ID_NAME.test(name)));
}

/**
 * The refusals of the public routes outside /_api, which their access declaration does not tell: the signed object
 * URLs (the signature is the authorization) and the web app's shell.
 */
const UNGUARDED_REFUSALS: Record<string, Record<number, string>> = {
  'PUT /_objects/*': {
    403: 'PERMISSION_ERROR: the signature is wrong or expired, the URL was signed for another key, method or length, or the key is in the vault (write-once).',
    404: 'NOT_FOUND: the multipart upload the part belongs to does not exist.',
    410: 'NOT_FOUND: the upload is no longer open (finished, aborted, or its file deleted).',
    411: 'VALIDATION_ERROR: no Content-Length on a URL signed for an exact length.',
    412: 'CONFLICT_ERROR: the key already holds an object (objects are written once).',
    413: 'PAYLOAD_TOO_LARGE: the body is larger than the signed limit.',
  },
  'GET /_objects/*': {
    403: 'PERMISSION_ERROR: the signature is wrong or expired, or the URL was signed for another key or method.',
    404: 'NOT_FOUND: no such object, or no file points at it any more.',
  },
  'GET /*': { 404: 'NOT_FOUND: a path under /_api or /_objects that no route serves, or a file the web app does not have.' },
};

/** The refusals an operation can answer, with the error shape, from its declared access and its inputs. */
function refusalsOf(key: string, url: string, access: RouteAccess | undefined, schema: DocSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  out[400] = errorAnswer(
    'VALIDATION_ERROR: a field is missing or invalid, or some text holds NUL or a lone surrogate, or the input nests too deep.',
  );
  for (const [status, description] of Object.entries(UNGUARDED_REFUSALS[key] ?? {})) out[status] = errorAnswer(description);
  const api = url.startsWith('/_api/');
  const signedIn = access && access.who !== 'public' && access.who !== 'optional';
  if (signedIn) {
    out[401] = errorAnswer(
      access.stepUp
        ? 'UNAUTHENTICATED: no live session; MFA_REQUIRED: the step-up is asked for and no code or token came; ' +
            'MFA_INVALID: the code or token is wrong, spent, or of another class.'
        : 'UNAUTHENTICATED: no live session (never signed in, signed out, expired or revoked).',
    );
  }
  if (api) {
    const reasons = ['FORBIDDEN_ORIGIN: a browser call from another site'];
    if (access?.who === 'signed-in')
      reasons.push('PERMISSION_ERROR: the user has not yet set up the second factor the organization requires');
    const rules = signedIn ? rulesOf(access).filter((r) => r !== 'anyone') : [];
    if (rules.length) reasons.push(`PERMISSION_ERROR: the caller does not meet the rule ${rules.join(', then ')}`);
    if (signedIn && access.organizationField) reasons.push(`PERMISSION_ERROR: ${access.organizationField.name} names another organization`);
    out[403] = errorAnswer(`${reasons.join('; ')}.`);
  }
  if (signedIn && access.stepUp) {
    out[429] = errorAnswer('RATE_LIMIT_EXCEEDED: too many wrong codes; code checks are locked for a while (see Retry-After).');
  }
  if (schema.body) {
    out[413] = errorAnswer('PAYLOAD_TOO_LARGE: the body is over 1 MB.');
    out[415] = errorAnswer('UNSUPPORTED_MEDIA_TYPE: the body is not JSON.');
  }
  if (signedIn && looksUpIds(schema.body, schema.querystring, schema.params)) {
    out[404] = errorAnswer('NOT_FOUND: a row it names does not exist, or belongs to another organization (answered alike).');
  }
  return out;
}

/**
 * Per route: the zod schemas become JSON Schema (fastify-type-provider-zod), then the declared access adds the
 * operation's security, its step-up and its refusals; a trailing wildcard becomes a named path parameter.
 * Answers the route declares itself (a 429, a 503) are kept as declared.
 */
const transform: SwaggerTransform = (input) => {
  const { schema: transformed, url } = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const schema = { ...transformed } as DocSchema;
  if (schema.hide) return { schema, url };
  const access = input.route.config?.access;
  schema.security ??= securityOf(access);
  if (access && 'stepUp' in access && access.stepUp) {
    const { operation, flag, accepts } = access.stepUp;
    schema['x-strongroom-step-up'] = {
      operation,
      ...(flag ? { flag } : {}),
      accepts,
      ...(access.stepUp.when ? { conditional: true } : {}),
      ...(access.stepUp.readOnly ? { readOnlyOperation: access.stepUp.readOnly.operation } : {}),
    };
    schema.description = [schema.description, stepUpSentence(access.stepUp)].filter(Boolean).join('\n\n');
  }
  const governed = access && 'governed' in access && access.governed ? [access.governed].flat().map((g) => g.action) : [];
  if (governed.length > 0) {
    schema['x-strongroom-governed'] = governed;
    schema.description = [
      schema.description,
      `Can need a second approver (${governed.join(', ')}), when the organization's approval rules say so: the call is then ` +
        'checked, recorded as an approval request and answered 202 APPROVAL_REQUIRED with the preview of its effect; ' +
        'nothing changes until another administrator approves it (POST /_api/approvals/decide).',
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  const methods = [input.route.method].flat();
  const declared = { ...(schema.response ?? {}) };
  if (governed.length > 0) {
    declared[202] = {
      description: 'APPROVAL_REQUIRED: recorded for a second approver; nothing has changed yet.',
      content: { 'application/json': { schema: z.toJSONSchema(approvalRequiredResponse, { target: 'draft-2020-12', io: 'output' }) } },
    };
  }
  schema.response = { ...refusalsOf(`${methods[0]} ${url}`, url, access, schema), ...declared };
  // A download (a file, a document, a stream) declares no JSON answer: its success is named all the same.
  if (!Object.keys(declared).some((status) => status.startsWith('2'))) {
    schema.response[200] = {
      type: 'null',
      description: 'Success. The body, if any, is not JSON: its Content-Type header says what it is.',
    };
  }
  const wildcard = wildcardParameter(url);
  if (wildcard) return { schema: { ...schema, params: wildcard.params }, url: wildcard.url };
  return { schema, url };
};

/** The named schemas of the routes (fastify-type-provider-zod), and the one error shape every refusal has. */
const transformObject: SwaggerTransformObject = (document) => {
  const object = jsonSchemaTransformObject(document) as { components?: { schemas?: Record<string, unknown> } };
  const error = z.toJSONSchema(errorResponse, { target: 'draft-2020-12', io: 'output' }) as JsonSchema;
  // An answer may carry more than these fields (MFA_REQUIRED answers also bring a `message`).
  delete error.$schema;
  delete error.additionalProperties;
  return {
    ...object,
    components: {
      ...object.components,
      schemas: {
        ...object.components?.schemas,
        [ERROR_SCHEMA]: { ...error, description: 'Every refusal: the text to show, a stable code, and details clients may decide on.' },
      },
    },
  } as ReturnType<SwaggerTransformObject>;
};

/** The @fastify/swagger options: the document's header, its security schemes, and the transforms above. */
export function openApiOptions(opts: { appUrl: string }): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Strongroom API',
        version: API_VERSION,
        description:
          'The calls behind the Strongroom web app, generated from the route declarations. Every body is JSON, ' +
          'every refusal has the Error shape (a stable `code` always included).',
      },
      servers: [{ url: opts.appUrl }],
      components: {
        securitySchemes: {
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal API token (Settings → API tokens; POST /_api/settings/api-tokens), sent as `Authorization: Bearer srt_…`. ' +
              'It reaches the operations that list its scope (matters:read, files:read, files:upload, audit:read), in its ' +
              "owner's organization, as its owner may; never an operation that asks for a fresh second-factor code. " +
              'Without a cookie: a call with both a token and a session cookie is refused.',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'sr_session',
            description: 'The session cookie set when signing in (POST /_api/auth/login_with_password and its second-factor steps).',
          },
          stepUp: {
            type: 'apiKey',
            in: 'header',
            name: 'X-MFA-Token',
            description:
              "A fresh 6-digit code of the user's second-factor method, or a system MFA token from POST " +
              "/_api/auth/verifySystemMfa for the operation's risk class. Also accepted as the body's or the " +
              "query's `mfaToken`; the header is read first, then the body, then the query.",
          },
        },
      },
    },
    // The server's URL is where the app is reached; the routes' paths are kept whole.
    stripBasePath: false,
    transform,
    transformObject,
  };
}
