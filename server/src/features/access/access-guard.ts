/**
 * The access guard: every /_api route declares who may call it (`config: { access }`, see shared/route-access.ts)
 * and this one preHandler enforces the declaration before the handler runs, after the input was validated (a
 * malformed call is a 400 whoever sends it):
 * 1. the session the route's `who` asks for (401 without one, 403 at the setup wall);
 * 2. the role and permission rules, in order (403 with the rule's text);
 * 3. a body or query field naming an organization must name the caller's (403);
 * 4. the step-up: the organization's flag and the route's predicate decide whether it is required, and the MFA
 *    code or token is read once, the X-MFA-Token header first, then the body's `mfaToken`, then the query's;
 * 5. a governed change (the organization's approval rules name it): the step-up records a request for a second
 *    approver instead of making the change (features/approvals).
 * The service receives `auth.stepUp` and calls `run` once the request is known to be acceptable.
 * A route under /_api that declares nothing is refused when it is added, so no call is left unguarded by mistake.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_RULES, API_TOKEN_MSG, APPROVAL_REASON_HEADER, MSG, type AccessSubject, type Role } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { badRequest, forbidden, type AppError } from '../../shared/errors.js';
import { requestMeta } from '../../shared/request-meta.js';
import type { AllowRule, RouteAccess, StepUp, StepUpDeclaration } from '../../shared/route-access.js';
import { governedStepUp } from '../approvals/index.js';
import { isFlagEnabled } from '../feature-flags/index.js';
import { freshCodeRequired, withFreshMfa } from '../mfa/index.js';
import { SESSION_COOKIE, sessionFor, type AuthContext, type SessionContext } from '../sessions/index.js';
import { tokenSession } from '../api-tokens/index.js';

/** Every guarded route's declaration, keyed "METHOD /path" (the OpenAPI document and the probes read it). */
type RouteAccessTable = ReadonlyMap<string, RouteAccess>;

declare module 'fastify' {
  interface FastifyInstance {
    routeAccess: RouteAccessTable;
  }
}

/** The refusal text of a rule when the route names none. */
const DEFAULT_DENIAL: Partial<Record<AllowRule['rule'], (role: Role) => string>> = {
  member: (role) => MSG.accessDenied(role),
};

function rulesOf(allow: RouteAccess & { allow?: unknown }): readonly AllowRule[] {
  if (!('allow' in allow) || allow.allow === undefined) return [];
  return typeof allow.allow === 'string' ? [{ rule: allow.allow as AllowRule['rule'] }] : (allow.allow as readonly AllowRule[]);
}

function denialOf(rule: AllowRule, user: AccessSubject): AppError {
  const own = rule.refuse?.(user);
  if (own) return own;
  const role = user.role;
  const deny = rule.deny ?? DEFAULT_DENIAL[rule.rule];
  if (deny === undefined) return forbidden();
  return forbidden(typeof deny === 'function' ? deny(role) : deny);
}

/** The MFA code or system token of a request, read once: header, then body, then query. */
export function stepUpTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-mfa-token'];
  if (typeof header === 'string' && header !== '') return header;
  for (const source of [request.body, request.query]) {
    const value = (source as { mfaToken?: unknown } | undefined)?.mfaToken;
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** A route that declares no step-up: its changes run plainly, and no token or code is looked at. */
function noStepUp(ctx: AppContext): StepUp {
  return {
    operation: null,
    required: false,
    run: (action) => ctx.db.transaction().execute((trx) => action(trx, 'not-required')),
    freshCodeRequired: () => {
      throw new Error('this route declares no step-up');
    },
  };
}

async function stepUpFor(
  ctx: AppContext,
  request: FastifyRequest,
  session: SessionContext,
  declared: StepUpDeclaration | undefined,
): Promise<StepUp> {
  if (!declared) return noStepUp(ctx);
  const token = stepUpTokenOf(request);
  const ip = requestMeta(request).ip;
  const input = { body: request.body, query: request.query, user: session.user };
  const applies = declared.when ? declared.when(input) : true;
  const required = applies && (declared.flag ? await isFlagEnabled(ctx.db, session.user.organizationId, declared.flag) : true);
  // A request that changes nothing asks for its lesser operation, whose class's tokens serve it (and no other).
  const operation = declared.readOnly?.when(input) ? declared.readOnly.operation : declared.operation;
  return {
    operation,
    required,
    freshCodeRequired: () => freshCodeRequired(session, operation),
    run(action) {
      if (!required) return ctx.db.transaction().execute((trx) => action(trx, 'not-required'));
      // A change only a fresh code may make: a system token of any class is asked for a code instead.
      if (declared.accepts === 'code' && token !== undefined && !/^\d{6}$/.test(token)) {
        return Promise.reject(freshCodeRequired(session, operation));
      }
      return withFreshMfa(ctx, session, operation, token, ip, (trx, mfa) => action(trx, mfa.via), declared.accepts !== 'code');
    },
  };
}

/** The token of an `Authorization: Bearer` header, if the request has one. */
function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : header.trim() === '' ? undefined : '';
}

/**
 * The caller of an API token: only routes that declare a token scope, only signed-in routes, and never together
 * with a session cookie (a browser's call and a tool's are told apart, not merged).
 */
async function bearerSession(ctx: AppContext, request: FastifyRequest, access: RouteAccess, bearer: string): Promise<SessionContext> {
  if (request.cookies[SESSION_COOKIE]) throw badRequest(API_TOKEN_MSG.tokenAndSession);
  const scope = access.who === 'signed-in' ? access.tokenScope : undefined;
  return tokenSession(ctx, bearer, scope);
}

/** What the approvals feature needs of a governed request: its input, route, origin and approval-reason header. */
function governedCallOf(request: FastifyRequest) {
  const header = request.headers[APPROVAL_REASON_HEADER];
  return {
    body: request.body,
    query: request.query,
    path: request.routeOptions.url ?? '',
    meta: requestMeta(request),
    reasonHeader: typeof header === 'string' ? header : undefined,
  };
}

function checkDeclaration(key: string, access: RouteAccess | undefined): asserts access is RouteAccess {
  if (!access) throw new Error(`${key} declares no access (config.access)`);
  if ((access.who === 'public' || access.who === 'optional') && !access.why) throw new Error(`${key}: a ${access.who} route says why`);
}

/**
 * Installs the guard before any route is added: `request.auth` starts out null, every /_api route must declare
 * its access, and the declarations are kept in `app.routeAccess`.
 */
export function registerAccessGuard(app: FastifyInstance, ctx: AppContext): void {
  const table = new Map<string, RouteAccess>();
  app.decorate('routeAccess', table);
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!route.url.startsWith('/_api/') && !access) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const key = `${method} ${route.url}`;
      checkDeclaration(key, access);
      table.set(key, access);
    }
  });
  // A public route (health checks, sign-in) passes without a promise made for it; the others are checked below.
  app.addHook('preHandler', (request, reply, done) => {
    const access = request.routeOptions.config.access;
    if (!access || access.who === 'public') return done();
    checkAccess(ctx, request, reply, access).then(() => done(), done);
  });
}

/** Who the caller is and whether the route's declared access lets them in; `request.auth` is set when it does. */
async function checkAccess(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  access: Exclude<RouteAccess, { who: 'public' }>,
): Promise<void> {
  const bearer = bearerTokenOf(request);
  const session =
    bearer !== undefined ? await bearerSession(ctx, request, access, bearer) : await sessionFor(ctx, request, reply, access.who);
  if (!session) return;
  if (access.who === 'optional') {
    request.auth = { ...session, stepUp: noStepUp(ctx) };
    return;
  }
  for (const rule of rulesOf(access)) {
    if (!ACCESS_RULES[rule.rule](session.user)) throw denialOf(rule, session.user);
  }
  if (access.organizationField) {
    const { name, deny } = access.organizationField;
    for (const source of [request.body, request.query]) {
      const value = (source as Record<string, unknown> | undefined)?.[name];
      if (value !== undefined && value !== session.user.organizationId) throw forbidden(deny);
    }
  }
  const plain = await stepUpFor(ctx, request, session, access.stepUp);
  // A token never passes a step-up: what needs a fresh code is done signed in.
  if (bearer !== undefined && plain.required) throw forbidden(API_TOKEN_MSG.stepUpRefused);
  // A change the organization puts behind a second approver is recorded as a request instead of being made.
  const stepUp = access.governed ? await governedStepUp(ctx, governedCallOf(request), session, access.governed, plain) : plain;
  const auth: AuthContext = { ...session, stepUp };
  request.auth = auth;
}
