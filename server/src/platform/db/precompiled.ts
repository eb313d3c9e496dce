import type { CompiledQuery, Compilable, KyselyPlugin } from 'kysely';
import type { Executor } from './database.js';

type Shape = Record<string, 'string' | 'date'>;
type ValuesOf<S extends Shape> = { [K in keyof S]: S[K] extends 'date' ? Date : string };

/**
 * A query that runs on (nearly) every request, built and compiled once instead of on every call. Building a
 * Kysely query and compiling it (with the camel-case plugin rewriting every identifier) costs more CPU than
 * sending it and reading the answer; the SQL text never changes, only the values do.
 *
 * `build` receives placeholder values, one per key of `shape` (a string, or a date); each placeholder must reach the query
 * as a bound parameter (never inlined into the SQL), so that each call can put its own values in their places.
 * Values the build takes from elsewhere (constants such as `true`) stay as compiled.
 */
export function precompiled<const S extends Shape, O>(
  shape: S,
  build: (db: Executor, values: ValuesOf<S>) => Compilable<O>,
): (db: Executor, values: ValuesOf<S>) => Promise<O[]> {
  type P = ValuesOf<S>;
  const keys = Object.keys(shape) as Array<keyof P & string>;
  // Placeholders recognised by identity: a Date object made here, or a string no caller could pass.
  const placeholders = Object.fromEntries(
    keys.map((k) => [k, shape[k] === 'date' ? new Date(0) : `\u0000placeholder:${k}:${Math.random()}`]),
  ) as P;
  // One compiled form per set of plugins (the database and its transactions share theirs).
  const compiledFor = new WeakMap<readonly KyselyPlugin[], { compiled: CompiledQuery<O>; slots: Array<keyof P | null> }>();

  function compile(db: Executor) {
    const compiled = build(db, placeholders).compile();
    const slots = compiled.parameters.map((p) => keys.find((k) => p === placeholders[k]) ?? null);
    for (const k of keys) {
      if (!slots.includes(k)) throw new Error(`precompiled query: the value '${k}' did not become a bound parameter`);
    }
    return { compiled, slots };
  }

  return async (db, values) => {
    const plugins = db.getExecutor().plugins;
    let entry = compiledFor.get(plugins);
    if (!entry) {
      entry = compile(db);
      compiledFor.set(plugins, entry);
    }
    const { compiled, slots } = entry;
    const parameters = compiled.parameters.map((p, i) => {
      const slot = slots[i];
      return slot == null ? p : values[slot];
    });
    const result = await db.executeQuery<O>({ ...compiled, parameters });
    return result.rows;
  };
}
