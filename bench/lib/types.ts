import type { MachineInfo } from './machine.js';

/** A table of figures; cells are already formatted for the report. */
export type Table = { caption?: string; columns: string[]; rows: Array<Array<string | number>> };

export type ScenarioResult = {
  /**
   * A variant of the scenario (e.g. the database kind). Each variant keeps its own section in
   * docs/performance.md, so a PostgreSQL run does not replace the PGlite figures.
   */
  variant?: string;
  /** The command that reproduces this section, when it needs more than `npm run bench -- NAME`. */
  command?: string;
  /** Markdown lines shown above the tables: the headline figures. */
  summary: string[];
  tables: Table[];
  /** Markdown lines shown below the tables: set-up, caveats. */
  notes: string[];
  /** One line for the console at the end of the run. */
  headline: string;
};

export type RunContext = {
  /** The repository root (the folder holding package.json with the workspaces). */
  root: string;
  machine: MachineInfo;
  log(message: string): void;
};

export type Scenario = {
  /** Used on the command line (`npm run bench -- NAME`) and as the section key in docs/performance.md. */
  name: string;
  title: string;
  /** Scenarios run in ascending order. */
  order: number;
  /** What the scenario measures, in one or two sentences (shown in the report). */
  description: string;
  run(ctx: RunContext): Promise<ScenarioResult>;
};
