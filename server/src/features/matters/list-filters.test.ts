import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATTER_MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createMatter, newOrganization, ok, type Member } from '../../../test/factories.js';

let t: TestApp;
let firm: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  firm = await newOrganization(t, 'Filters LLP');
  other = await newOrganization(t, 'Elsewhere LLP');
  const rows: Array<[string, string, string]> = [
    ['Harbour lease', 'Marlow Estates', 'Jane Counsel'],
    ['Quay boundary', 'marlow estates', 'Janet Counsel-Smith'],
    ['Mill probate', 'Great Marlow Trust', 'Sam Barrister'],
    ['Discount claim', '100% Foods', 'Lee_Solicitor'],
    ['Path dispute', 'Back\\Slash Ltd', 'Lee Solicitor'],
  ];
  for (const [name, client, lawyer] of rows)
    await createMatter(firm.client, { matterName: name, clientName: client, responsibleAttorney: lawyer });
  await createMatter(other.client, { matterName: 'Not yours', clientName: 'Marlow Estates', responsibleAttorney: 'Jane Counsel' });
});
afterAll(() => t.shutdown());

const list = async (query: string, c = firm.client) =>
  ok(await c.get(`/_api/matters/list?sortBy=matter_name&sortDirection=asc${query}`)) as {
    matters: Array<{ matterName: string }>;
    totalCount: number;
  };
const names = async (query: string, c = firm.client) => (await list(query, c)).matters.map((m) => m.matterName);

describe('GET /_api/matters/list client and lawyer filters', () => {
  it('finds typed text anywhere in the client name, ignoring case', async () => {
    expect(await names('&clientName=marlow')).toEqual(['Harbour lease', 'Mill probate', 'Quay boundary']);
    expect(await names('&clientName=ESTATES')).toEqual(['Harbour lease', 'Quay boundary']);
    expect((await list('&clientName=marlow')).totalCount).toBe(3);
  });

  it('finds typed text anywhere in the lawyer name, ignoring case', async () => {
    expect(await names('&responsibleLawyer=counsel')).toEqual(['Harbour lease', 'Quay boundary']);
    expect(await names('&responsibleLawyer=smith')).toEqual(['Quay boundary']);
    expect(await names('&responsibleLawyer=jane')).toEqual(['Harbour lease', 'Quay boundary']);
  });

  it('matches a picked suggestion as the whole name, ignoring case', async () => {
    expect(await names('&clientName=Marlow%20Estates&clientNameExact=true')).toEqual(['Harbour lease', 'Quay boundary']);
    expect(await names('&clientName=marlow&clientNameExact=true')).toEqual([]);
    expect(await names('&responsibleLawyer=Jane%20Counsel&responsibleLawyerExact=true')).toEqual(['Harbour lease']);
    // The flag is for its own field only.
    expect(await names('&clientName=marlow&responsibleLawyer=Jane%20Counsel&responsibleLawyerExact=true')).toEqual(['Harbour lease']);
    expect(await names('&clientName=marlow&clientNameExact=false')).toHaveLength(3);
    expect(await names('&clientName=marlow&clientNameExact=')).toHaveLength(3);
  });

  it('takes %, _ and \\ in typed text literally', async () => {
    expect(await names('&clientName=100%25')).toEqual(['Discount claim']);
    expect(await names('&clientName=%25')).toEqual(['Discount claim']);
    expect(await names('&responsibleLawyer=lee_')).toEqual(['Discount claim']);
    expect(await names('&responsibleLawyer=_')).toEqual(['Discount claim']);
    expect(await names('&clientName=k%5Cs')).toEqual(['Path dispute']);
    expect(await names('&clientName=%5C')).toEqual(['Path dispute']);
  });

  it("never finds another organization's matters", async () => {
    expect(await names('&clientName=marlow', other.client)).toEqual(['Not yours']);
    expect(await names('&clientName=Marlow%20Estates&clientNameExact=true', other.client)).toEqual(['Not yours']);
  });

  it('refuses an exact flag other than true or false with its message', async () => {
    for (const q of ['?clientNameExact=yes', '?responsibleLawyerExact=1']) {
      const r = await firm.client.get(`/_api/matters/list${q}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(MATTER_MSG.invalidExactFlag);
    }
  });
});
