/**
 * What a route declares about who may call it, next to its schema (`config: { access }`), and the step-up handle
 * its service receives. One guard (features/access) enforces the declaration before the handler runs; the
 * OpenAPI document, the tenant probes and the input fuzz read the same declarations.
 */
import type {
  AccessRule,
  AccessSubject,
  ApiTokenScope,
  ApprovalRequestAction,
  FeatureFlagName,
  Role,
  SystemMfaOperation,
} from '@strongroom/contracts';
import type { Executor } from '../platform/db/database.js';
import type { AppError } from './errors.js';

/**
 * Who reaches the handler:
 * - 'public': no session is looked at (signing in, first run, invitation and reset links); `why` says what
 *   authorizes the call instead;
 * - 'optional': the session is read if there is one; nothing is refused;
 * - 'session-status': a live session, before the second-factor setup wall too; reading it is not activity;
 * - 'setup-wall-ok': a live session, before the second-factor setup wall too (the calls the wall itself needs);
 * - 'signed-in': a live session of a user past the setup wall. Every signed-in call is scoped to the session's
 *   organization: ids of another organization answer 404 as ids that exist nowhere.
 */
type Who = 'public' | 'optional' | 'session-status' | 'setup-wall-ok' | 'signed-in';

/**
 * The operations a step-up can be asked for: the system MFA operations, a change of one's sign-in email, and an
 * approval of another administrator's request, the creation of an API token, and single sign-on's settings and
 * the unlinking of one's provider.
 */
export type StepUpOperation =
  SystemMfaOperation | 'UPDATE_PROFILE_EMAIL' | 'APPROVE_REQUEST' | 'CREATE_API_TOKEN' | 'UPDATE_SSO_SETTINGS' | 'UNLINK_SSO_IDENTITY';

/** The organization's switches that turn a step-up on (absent: the step-up is always asked for). */
type StepUpFlag = Extract<FeatureFlagName, `MFA_${string}`>;

/** What the step-up predicate sees: the validated input and who is asking. */
type StepUpInput = { body: unknown; query: unknown; user: { email: string; role: Role } };

/**
 * A route whose change the organization may put behind a second administrator (Settings → Security → Approvals).
 * When the organization's rules name `action` and `when` holds (absent: always), the call is checked exactly as it
 * would run, recorded as an approval request with a preview of its effect, and answered 202; it runs, for its
 * requester, once another administrator approves it. The preview and the execution of each action are in
 * features/approvals (governed-actions.ts).
 */
export type GovernedDeclaration = { action: ApprovalRequestAction; when?: (input: StepUpInput) => boolean };

export type StepUpDeclaration = {
  /** The operation named in MFA_REQUIRED answers and audit entries; it decides which system MFA tokens serve. */
  operation: StepUpOperation;
  /** The organization's feature flag that governs it; without one the step-up is always asked for. */
  flag?: StepUpFlag;
  /**
   * 'code-or-token': a fresh code of the user's method, or a live system MFA token of the operation's risk class;
   * 'code': only a fresh code (turning safeguards off, for instance).
   */
  accepts: 'code-or-token' | 'code';
  /** When the step-up depends on what is asked (sharing, not unsharing; a new email, not a new name). */
  when?: (input: StepUpInput) => boolean;
  /**
   * A request of the call that changes nothing (a dry run that only counts) is of a lesser operation: when
   * `when` holds, the step-up is `operation` here, and only that operation's class of tokens serves it.
   */
  readOnly?: { operation: StepUpOperation; when: (input: StepUpInput) => boolean };
};

/**
 * One rule the caller must satisfy, with the refusal's text (a 403) when the default is not the right word, and
 * where some people are refused for a reason of their own (a person who may change nothing is told the matters
 * are read-only), `refuse` answers that refusal for them (undefined: the text above).
 */
export type AllowRule = {
  rule: AccessRule;
  deny?: string | ((role: Role) => string);
  refuse?: (user: AccessSubject) => AppError | undefined;
};

export type RouteAccess =
  | { who: 'public'; why: string }
  | { who: 'optional'; why: string }
  | {
      who: Exclude<Who, 'public' | 'optional'>;
      /** Checked in order; the first that does not hold answers 403 with its text. Absent: anyone signed in. */
      allow?: AccessRule | readonly AllowRule[];
      stepUp?: StepUpDeclaration;
      governed?: GovernedDeclaration | readonly GovernedDeclaration[];
      /**
       * The API token scope that reaches this route (`Authorization: Bearer`); absent, no token does. A token never
       * passes a step-up: a call that needs a fresh code is refused to it whatever its scopes.
       */
      tokenScope?: ApiTokenScope;
      /** A body or query field that may name the caller's organization; any other value answers 403. */
      organizationField?: { name: string; deny: string };
    };

/** How the change was allowed: a code, a system token, no step-up needed, or an approved request run for its requester. */
type SignedInAccess = Exclude<RouteAccess, { who: 'public' | 'optional' }>;

/** A signed-in route's declaration with the API token scope that reaches it (see `tokenScope`). */
export function tokenScoped<A extends SignedInAccess>(
  config: { access: A },
  scope: ApiTokenScope,
): { access: A & { tokenScope: ApiTokenScope } } {
  return { access: { ...config.access, tokenScope: scope } };
}

type StepUpVia = 'code' | 'system-token' | 'not-required' | 'approval';

/**
 * The step-up of one request, as the guard decided it from the route's declaration, the organization's flags and
 * the request's MFA code or token (read once: the X-MFA-Token header, else the body's mfaToken, else the query's).
 * Services call `run` once every rule of the request has been checked, so a code is never spent on a request
 * that was going to fail: the action runs in the transaction that spends the code.
 */
export interface StepUp {
  /** The declared operation, or null where the route declares no step-up. */
  readonly operation: StepUpOperation | null;
  /** Whether this request must bring a fresh code or token (the flag is on and the predicate holds). */
  readonly required: boolean;
  /** Runs `action` in one transaction: behind the code or token when required, plainly otherwise. */
  run<T>(action: (trx: Executor, via: StepUpVia) => Promise<T>): Promise<T>;
  /** The MFA_REQUIRED answer asking for a fresh code of the user's method, for a change no token may make. */
  freshCodeRequired(): AppError;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
