/**
 * Failpoints: named places in multi-step changes (completing an upload, deleting objects, vaulting, retention
 * end, archival) where a crash test holds a run so that it can kill the server at exactly that moment and prove
 * that a restart finishes the change with nothing lost or recorded twice.
 *
 * They are configured by FAILPOINTS (validated with the rest of the configuration) and are off unless it is set:
 * a point then costs one lookup in an empty map. When a point fires it writes one log line,
 * `failpoint <name> reached`, which is the crash test's signal to kill.
 *
 * FAILPOINTS is a `;`-separated list of `<name>=pause(<ms>[,once][,after=<n>])` or `<name>=error`:
 * - pause(<ms>): hold the run that long each time the point is reached;
 * - once: only the first time in this process;
 * - after=<n>: only from the n-th time the point is reached in this process;
 * - error: throw at the point, as a crash there would stop the run (tests in one process).
 *
 * A test in one process can end a pause early with releaseFailpoints: the held run then goes on when the test has
 * done what it does meanwhile, not when a time has passed.
 */
const FAILPOINT_NAMES = [
  /** A completion joined the parts and has not hashed them yet. */
  'upload.after-join',
  /** The delete-objects job removed one object from the store. */
  'nodes.delete.after-object',
  /** The vault transfer recorded one more file. */
  'vault.transfer.after-file',
  /** Retention end removed a vaulted object and has not marked its row yet. */
  'vault.retention.after-delete',
  /** Archival wrote a batch's object and has not committed its transaction yet. */
  'archival.after-object-write',
  /** The file-text job claimed a file's text and has not read the file yet. */
  'search.text.before-read',
  /** The file-text job read a file's text and has not written it yet. */
  'search.text.after-read',
  /** An approval was committed and the approved action has not run yet. */
  'approvals.after-approve',
] as const;
export type FailpointName = (typeof FAILPOINT_NAMES)[number];

type FailpointAction = { pauseMs: number; once: boolean; after: number; error: boolean };
export type Failpoints = ReadonlyMap<FailpointName, FailpointAction>;

export const NO_FAILPOINTS: Failpoints = new Map();

const ENTRY = /^([a-z.-]+)=(?:pause\((\d{1,9})((?:,(?:once|after=\d{1,6}))*)\)|(error))$/;

/** Parses FAILPOINTS; answers the points or a message saying what is wrong. */
export function parseFailpoints(text: string | undefined): Failpoints | string {
  if (text === undefined || text.trim() === '') return NO_FAILPOINTS;
  const points = new Map<FailpointName, FailpointAction>();
  for (const raw of text.split(';')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const m = ENTRY.exec(entry);
    if (!m) return `"${entry}" is not <name>=pause(<ms>[,once][,after=<n>]) or <name>=error`;
    const name = m[1] as FailpointName;
    if (!FAILPOINT_NAMES.includes(name)) return `unknown failpoint "${m[1]}" (known: ${FAILPOINT_NAMES.join(', ')})`;
    const options = (m[3] ?? '').split(',').filter(Boolean);
    const after = options.find((o) => o.startsWith('after='));
    points.set(name, {
      pauseMs: Number(m[2] ?? 0),
      once: options.includes('once'),
      after: after ? Number(after.slice(6)) : 1,
      error: m[4] === 'error',
    });
  }
  return points;
}

type Hits = Map<FailpointName, number>;
const hitsByConfig = new WeakMap<Failpoints, Hits>();
/** The pauses holding a run now, by configuration: each ends its pause when called. */
const heldByConfig = new WeakMap<Failpoints, Set<() => void>>();

/** Ends every pause that holds a run under these points now; the runs go on at once. */
export function releaseFailpoints(points: Failpoints): void {
  for (const release of [...(heldByConfig.get(points) ?? [])]) release();
}

/**
 * Reaches the named point: returns at once unless FAILPOINTS names it; otherwise counts the hit and, when the
 * point's rule says so, logs `failpoint <name> reached` and holds the run for the configured time (or throws).
 */
export async function failpoint(
  ctx: { config: { failpoints: Failpoints }; log: { warn(obj: object, msg: string): void } },
  name: FailpointName,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const action = ctx.config.failpoints.get(name);
  if (!action) return;
  let hits = hitsByConfig.get(ctx.config.failpoints);
  if (!hits) hitsByConfig.set(ctx.config.failpoints, (hits = new Map()));
  const count = (hits.get(name) ?? 0) + 1;
  hits.set(name, count);
  if (count < action.after || (action.once && count > action.after)) return;
  ctx.log.warn({ ...detail, failpoint: name, hit: count }, `failpoint ${name} reached`);
  if (action.error) throw new Error(`failpoint ${name}: stopped here`);
  let held = heldByConfig.get(ctx.config.failpoints);
  if (!held) heldByConfig.set(ctx.config.failpoints, (held = new Set()));
  const pauses = held;
  await new Promise<void>((resolve) => {
    const release = () => {
      clearTimeout(timer);
      pauses.delete(release);
      resolve();
    };
    const timer = setTimeout(release, action.pauseMs);
    pauses.add(release);
  });
}
