import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from './helpers.js';
import { createFolder, createMatter, newOrganization, type Member } from './factories.js';

let t: TestApp;
let admin: Member;
let matterId: string;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Hardening LLP');
  matterId = (await createMatter(admin.client, { matterName: 'Base matter' })).id;
});
afterAll(() => t.shutdown());

/** Row counts of the tables a bad request could touch. */
async function counts() {
  const n = async (table: 'matters' | 'nodes' | 'auditLogs') =>
    Number(
      (
        await t.ctx.db
          .selectFrom(table)
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { matters: await n('matters'), nodes: await n('nodes'), audit: await n('auditLogs') };
}

/** Posts a JSON text as it is (escapes such as \ud800 and \u0000 reach the server's parser untouched). */
const postRaw = (url: string, json: string) =>
  admin.client.request({ method: 'POST', url, payload: json, headers: { 'content-type': 'application/json' } });

const NUL = '\\u0000';
const LONE_HIGH = '\\ud800';
const LONE_LOW = '\\udc00';

describe('NUL and lone surrogates', () => {
  it.each([
    ['NUL in a matter name', `{"matterName":"Smith ${NUL} Jones","clientName":"C","responsibleAttorney":"L"}`],
    [
      'a lone high surrogate in a description',
      `{"matterName":"M","clientName":"C","responsibleAttorney":"L","description":"a${LONE_HIGH}b"}`,
    ],
    ['a lone low surrogate in a client name', `{"matterName":"M","clientName":"${LONE_LOW}","responsibleAttorney":"L"}`],
    ['NUL in an unknown field', `{"matterName":"M","clientName":"C","responsibleAttorney":"L","x${NUL}":"y"}`],
  ])('matter creation refuses %s with 400 and changes nothing', async (_label, body) => {
    const before = await counts();
    const r = await postRaw('/_api/matters/create', body);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: MSG.textNotAllowed, code: 'VALIDATION_ERROR' });
    expect(await counts()).toEqual(before);
  });

  it('a pair of surrogates (an emoji) is fine', async () => {
    const r = await postRaw('/_api/matters/create', `{"matterName":"Smile \\ud83d\\ude00","clientName":"C","responsibleAttorney":"L"}`);
    expect(r.statusCode).toBe(200);
    expect(r.json().matter.matterName).toBe('Smile \u{1F600}');
  });

  it('matter update, folder creation, rename and the forensic log refuse them too', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Pleadings');
    const before = await counts();
    const calls: Array<[string, string]> = [
      ['/_api/matters/update', `{"matterId":"${m.id}","expectedVersion":${m.version},"matterName":"x${NUL}"}`],
      ['/_api/nodes/create', `{"matterId":"${m.id}","folderName":"Evidence${LONE_HIGH}"}`],
      ['/_api/nodes/rename', `{"nodeId":"${folder.id}","newName":"Re${NUL}named"}`],
      ['/_api/security/forensic-log', `{"action":"viewed${NUL}memo"}`],
      ['/_api/security/event-log', `{"action":"LOGOUT","targetId":"${LONE_LOW}"}`],
      ['/_api/security/event-log', `{"action":"LOGOUT","details":{"note":"a${NUL}b"}}`],
      ['/_api/security/event-log', `{"action":"LOGOUT","details":{"deep":[{"k${LONE_HIGH}":1}]}}`],
    ];
    for (const [url, body] of calls) {
      const r = await postRaw(url, body);
      expect({ url, status: r.statusCode, body: r.json() }).toEqual({
        url,
        status: 400,
        body: { error: MSG.textNotAllowed, code: 'VALIDATION_ERROR' },
      });
    }
    expect(await counts()).toEqual(before);
  });

  it.each([
    `/_api/matters/list?search=a%00b`,
    `/_api/matters/list?clientName=%00`,
    `/_api/matters/clients/suggestions?query=ab%00`,
    `/_api/matters/detail?matterId=%00`,
    `/_api/nodes/download-url?nodeId=%00`,
  ])('query %s answers 400 with the text rule', async (url) => {
    const r = await admin.client.get(url);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: MSG.textNotAllowed, code: 'VALIDATION_ERROR' });
  });

  it('a query with bytes that are no UTF-8 at all is no server failure', async () => {
    const r = await admin.client.get('/_api/matters/lawyers/suggestions?query=%ED%A0%80xx');
    expect(r.statusCode).toBeLessThan(500);
  });
});

describe('free-form details and nesting', () => {
  const nested = (levels: number) => {
    let v: unknown = 'leaf';
    for (let i = 0; i < levels; i++) v = { a: v };
    return v as Record<string, unknown>;
  };

  it('details nested 2,000 deep answers 400 and writes no audit entry', async () => {
    const before = await counts();
    const r = await admin.client.post('/_api/security/event-log', { action: 'LOGOUT', details: nested(2000) });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: MSG.requestTooDeep, code: 'VALIDATION_ERROR' });
    expect(await counts()).toEqual(before);
  });

  it('a body nested 200,000 deep is refused cleanly too', async () => {
    const depth = 200_000;
    const r = await postRaw('/_api/security/event-log', `{"action":"LOGOUT","details":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`);
    expect(r.statusCode).toBe(400);
  });

  it('details: at most 8 levels and 16 KB, with clear messages', async () => {
    const before = await counts();
    const deep = await admin.client.post('/_api/security/event-log', { action: 'LOGOUT', details: nested(9) });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toBe('Details cannot be nested more than 8 levels deep.');
    const big = await admin.client.post('/_api/security/forensic-log', { action: 'note', details: { text: 'x'.repeat(16 * 1024) } });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toBe('Details cannot exceed 16 KB.');
    expect(await counts()).toEqual(before);
    // Within the limits it is recorded as sent.
    const fine = await admin.client.post('/_api/security/event-log', { action: 'LOGOUT', details: nested(7) });
    expect(fine.statusCode).toBe(200);
    expect((await counts()).audit).toBe(before.audit + 1);
  });
});

describe('the base matter is untouched by all of the above', () => {
  it('still reads back as created', async () => {
    const r = await admin.client.get(`/_api/matters/detail?matterId=${matterId}`);
    expect(r.statusCode).toBe(200);
    expect(r.json().matter.matterName).toBe('Base matter');
  });
});
