import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from './helpers.js';
import { auditActions, createMatter, newOrganization, uploadFile, type Member } from './factories.js';

let t: TestApp;
let admin: Member;
let fileId: string;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Guarded LLP');
  const m = await createMatter(admin.client);
  fileId = (await uploadFile(t, admin.client, m.id, 'privileged.pdf', Buffer.from('privileged'))).id;
});
afterAll(() => t.shutdown());

const downloads = async () => (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'DOWNLOAD_FILE').length;
const refused = { error: MSG.forbiddenOrigin, code: 'FORBIDDEN_ORIGIN' };

describe('an /_api path written with escapes meets the same checks', () => {
  it('POST /%5Fapi/... with a foreign Origin is refused and not cached', async () => {
    const r = await admin.client.post(
      '/%5Fapi/matters/create',
      { matterName: 'Planted', clientName: 'C', responsibleAttorney: 'L' },
      { origin: 'https://evil.example' },
    );
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual(refused);
    expect(r.headers['cache-control']).toBe('no-store');
    const list = await admin.client.get('/_api/matters/list?search=Planted');
    expect(list.json().totalCount).toBe(0);
  });

  it('GET /%5Fapi/... answers with no-store like /_api/...', async () => {
    const r = await admin.client.get('/%5Fapi/auth/session', { 'x-api-version': 'v1.0.0' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const lower = await admin.client.get('/%5fapi/matters/list');
    expect(lower.statusCode).toBe(200);
    expect(lower.headers['cache-control']).toBe('no-store');
  });
});

describe('cross-site requests (Sec-Fetch-Site)', () => {
  it.each(['cross-site', 'same-site'])('a %s GET of the audited download URL is refused and not audited', async (site) => {
    const before = await downloads();
    for (const url of [`/_api/nodes/download-url?nodeId=${fileId}`, `/%5Fapi/nodes/download-url?nodeId=${fileId}`]) {
      const r = await admin.client.get(url, { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate' });
      expect(r.statusCode).toBe(403);
      expect(r.json()).toEqual(refused);
      expect(r.headers['cache-control']).toBe('no-store');
    }
    expect(await downloads()).toBe(before);
  });

  it("only the provider's redirect back from single sign-on is entered from another site, and only as a page navigation", async () => {
    const nav = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
    // The callback passes the guard and proves the request itself: a state it never issued is refused by it.
    const back = await admin.client.get('/_api/auth/sso/callback?code=c&state=never-issued', nav);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/login?sso_error=state_invalid');
    // Read by a script of another site, or any other route: refused as before.
    const fetched = await admin.client.get('/_api/auth/sso/callback?code=c&state=never-issued', {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'cors',
    });
    expect(fetched.json()).toEqual(refused);
    const start = await admin.client.get('/_api/auth/sso/start?email=someone%40guarded.test', nav);
    expect(start.json()).toEqual(refused);
  });

  it('a cross-site POST is refused even without an Origin header', async () => {
    const r = await admin.client.post(
      '/_api/matters/create',
      { matterName: 'Cross', clientName: 'C', responsibleAttorney: 'L' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(r.statusCode).toBe(403);
  });

  it('same-origin, a typed address (none) and requests without the headers still work', async () => {
    const before = await downloads();
    const cases: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      {},
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:3000' },
    ];
    for (const headers of cases) {
      const r = await admin.client.get(`/_api/nodes/download-url?nodeId=${fileId}`, headers);
      expect({ headers, status: r.statusCode }).toEqual({ headers, status: 200 });
    }
    expect(await downloads()).toBe(before + cases.length);
    const post = await admin.client.post(
      '/_api/matters/create',
      { matterName: 'Same origin', clientName: 'C', responsibleAttorney: 'L' },
      { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
    );
    expect(post.statusCode).toBe(200);
  });

  it('the object links themselves are not /_api calls and stay reachable', async () => {
    const { url } = (await admin.client.get(`/_api/nodes/download-url?nodeId=${fileId}`)).json();
    const u = new URL(url);
    const got = await t.app.inject({ method: 'GET', url: u.pathname + u.search, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('privileged');
  });
});
