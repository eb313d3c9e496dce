/**
 * The route declarations and the governed actions' previews agree: every route that names a governed action has
 * that action's preview and run for its path, and every preview belongs to a route that names it. A new governed
 * action is a line in its route's declaration plus its entry in governed/; forgetting either fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_REQUEST_ACTIONS } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { governedRoutes } from './index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
});
afterAll(() => t.shutdown());

describe('governed routes', () => {
  it('name only actions that have a preview for their path, and every preview has its route', () => {
    const declared: string[] = [];
    for (const [key, access] of t.app.routeAccess) {
      if (!('governed' in access) || !access.governed) continue;
      const path = key.slice(key.indexOf(' ') + 1);
      for (const g of [access.governed].flat()) declared.push(`${g.action} ${path}`);
    }
    const entries = governedRoutes().map((g) => `${g.action} ${g.path}`);
    expect(declared.sort()).toEqual([...entries].sort());
  });

  it('cover every action an organization can put behind a second approver', () => {
    const covered = new Set(governedRoutes().map((g) => g.action));
    const missing = APPROVAL_REQUEST_ACTIONS.filter((a) => !covered.has(a));
    expect(missing).toEqual([]);
  });
});
