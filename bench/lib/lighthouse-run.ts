// One Lighthouse run against a page of the running app, in Debian's Chromium started by chrome-launcher, and the
// figures a report needs from its result: the category scores, four metrics and the audits that cost points.
import fs from 'node:fs';
import path from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Result } from 'lighthouse';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
export type FormFactor = 'mobile' | 'desktop';

export type LighthouseFigures = {
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /** Per category, the audits that cost it points. */
  failing: Record<Category, string[]>;
  /** Audits that could not run (Lighthouse's own errors, not the page's). */
  errored: string[];
  finalPath: string;
  benchmarkIndex: number;
  warnings: string[];
};

/** Flags for headless Chromium: no sandbox (containers), no GPU; Lighthouse's own flags come from chrome-launcher. */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu'];

export async function startChromium(chromePath: string): Promise<LaunchedChrome> {
  return launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
}

/**
 * The audits Lighthouse's report shows as failed: a pass/fail audit that did not pass, a scored audit under 0.9 (the
 * report's green). Accessibility and best practices: only the audits that weigh in the score. Performance: its
 * weighted metrics and the unweighted opportunities and diagnostics too, which say where the time goes.
 */
function failingAudits(lhr: Result, category: Category): string[] {
  const out: string[] = [];
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || (category !== 'performance' && ref.weight === 0)) continue;
    const mode = audit.scoreDisplayMode;
    if (mode === 'binary' && audit.score < 1) out.push(ref.id);
    else if ((mode === 'numeric' || mode === 'metricSavings') && audit.score < 0.9) out.push(ref.id);
  }
  return out;
}

/** Lighthouse gives up on a run now and then (a trace without its navigation start): such a run is taken again. */
const ATTEMPTS = 3;

/** Lighthouse scores are 0..1; the report shows them as 0..100. */
const score100 = (s: number | null | undefined) => Math.round((s ?? 0) * 100);

export async function runLighthouse(o: {
  port: number;
  url: string;
  formFactor: FormFactor;
  cookie?: string;
  /** Where to write the full result (JSON), for reading the details of an audit; none when undefined. */
  keepAs?: string;
}): Promise<LighthouseFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(o);
    } catch (err) {
      if (attempt === ATTEMPTS) throw err;
    }
  }
}

async function runOnce(o: Parameters<typeof runLighthouse>[0]): Promise<LighthouseFigures> {
  const result = await lighthouse(
    o.url,
    {
      port: o.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      // Sent with every request of the page load: the signed-in pages need the session.
      extraHeaders: o.cookie ? { Cookie: o.cookie } : undefined,
    },
    o.formFactor === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${o.url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${o.url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (o.keepAs) {
    fs.mkdirSync(path.dirname(o.keepAs), { recursive: true });
    fs.writeFileSync(o.keepAs, JSON.stringify(lhr, null, 1));
  }
  const num = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: {
      performance: score100(lhr.categories.performance?.score),
      accessibility: score100(lhr.categories.accessibility?.score),
      'best-practices': score100(lhr.categories['best-practices']?.score),
    },
    lcpMs: num('largest-contentful-paint'),
    tbtMs: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    fcpMs: num('first-contentful-paint'),
    failing: {
      performance: failingAudits(lhr, 'performance'),
      accessibility: failingAudits(lhr, 'accessibility'),
      'best-practices': failingAudits(lhr, 'best-practices'),
    },
    errored: Object.values(lhr.audits)
      .filter((a) => a.scoreDisplayMode === 'error')
      .map((a) => a.id),
    finalPath: new URL(lhr.finalDisplayedUrl).pathname,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    warnings: lhr.runWarnings,
  };
}
