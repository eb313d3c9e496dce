/**
 * `npm run admin -- run-job`: each scheduled job's work run now by the real CLI in its own process (embedded
 * database in a temporary DATA_DIR), its JSON read back; --dry-run changes nothing, --organization limits the
 * run, and a request a job cannot do is refused with exit 64.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-run-job-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
const json = (r: ReturnType<typeof run>) => {
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim()) as Record<string, unknown>;
};
const headsOf = (org: string) => {
  const dir = path.join(dataDir, 'objects', 'vault', 'audit-heads', org);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

let org: string;
let other: string;

beforeAll(() => {
  const create = (name: string, email: string) =>
    (
      json(
        run(['create-org', '--name', name, '--admin-email', email, '--admin-name', 'Ada Admin', '--admin-password', 'correct horse']),
      ) as {
        organizationId: string;
      }
    ).organizationId;
  org = create('Acme LLP', 'ada@acme.test');
  other = create('Other LLP', 'ada@other.test');
}, 120_000);

describe('npm run admin -- run-job', () => {
  it('sign-audit-heads: the dry run lists what would be signed and signs nothing; the run signs once; --organization limits it', () => {
    const dry = json(run(['run-job', 'sign-audit-heads', '--dry-run', '--organization', org]));
    expect(dry).toEqual({ job: 'sign-audit-heads', dryRun: true, organizationId: org, wouldSign: [{ organizationId: org, seq: 1 }] });
    expect(headsOf(org)).toEqual([]);

    const one = json(run(['run-job', 'sign-audit-heads', '--organization', org]));
    expect(one).toEqual({
      job: 'sign-audit-heads',
      dryRun: false,
      organizationId: org,
      signed: [{ organizationId: org, seq: 1 }],
      failed: [],
    });
    expect(headsOf(org)).toEqual([expect.stringMatching(/^0{19}1-\d{8}T\d{6}Z\.json$/)]);
    expect(headsOf(other)).toEqual([]);

    // Everyone else now; the organization signed already has nothing new.
    const all = json(run(['run-job', 'sign-audit-heads']));
    expect(all.signed).toEqual([{ organizationId: other, seq: 1 }]);
    expect(json(run(['run-job', 'sign-audit-heads'])).signed).toEqual([]);
    expect(headsOf(org)).toHaveLength(1);
  }, 120_000);

  it('archive-audit: a dry run counts, a run archives (nothing is old enough here), per organization', () => {
    expect(json(run(['run-job', 'archive-audit', '--dry-run', '--organization', org]))).toEqual({
      job: 'archive-audit',
      dryRun: true,
      organizationId: org,
      wouldArchive: 0,
      organizations: [{ organizationId: org, archivedCount: 0, dryRun: true, batches: 0 }],
    });
    const all = json(run(['run-job', 'archive-audit']));
    expect(all).toMatchObject({ job: 'archive-audit', dryRun: false, archived: 0 });
    expect((all.organizations as Array<{ organizationId: string }>).map((o) => o.organizationId).sort()).toEqual([org, other].sort());
  }, 120_000);

  it('retention-end and verify-vault: dry runs report, runs run, for every organization or one', () => {
    expect(json(run(['run-job', 'retention-end', '--dry-run', '--organization', org]))).toEqual({
      job: 'retention-end',
      dryRun: true,
      organizationId: org,
      wouldEnd: [],
    });
    expect(json(run(['run-job', 'retention-end']))).toEqual({
      job: 'retention-end',
      dryRun: false,
      mattersFinished: 0,
      filesDeleted: 0,
      mattersWaiting: 0,
    });
    expect(json(run(['run-job', 'retention-end', '--organization', org]))).toEqual({
      job: 'retention-end',
      dryRun: false,
      organizationId: org,
      mattersFinished: 0,
      filesDeleted: 0,
      mattersWaiting: 0,
    });

    expect(json(run(['run-job', 'verify-vault', '--dry-run']))).toEqual({
      job: 'verify-vault',
      dryRun: true,
      wouldCheck: 0,
      bytes: 0,
      dueLeft: false,
    });
    expect(json(run(['run-job', 'verify-vault']))).toEqual({
      job: 'verify-vault',
      dryRun: false,
      checked: 0,
      failed: 0,
      bytes: 0,
      dueLeft: false,
    });
    expect(json(run(['run-job', 'verify-vault', '--organization', org]))).toEqual({
      job: 'verify-vault',
      dryRun: false,
      organizationId: org,
      checked: 0,
      failed: 0,
      bytes: 0,
      dueLeft: false,
    });
  }, 120_000);

  it('retention-mail: with no retention ending within 90 days, the dry run lists nothing and the run sends nothing', () => {
    expect(json(run(['run-job', 'retention-mail', '--dry-run']))).toEqual({ job: 'retention-mail', dryRun: true, organizations: [] });
    expect(json(run(['run-job', 'retention-mail', '--organization', org]))).toEqual({
      job: 'retention-mail',
      dryRun: false,
      organizationId: org,
      organizations: 0,
      sent: 0,
      alreadySent: 0,
      failed: 0,
    });
  }, 120_000);

  it('refuses an unknown job, an unknown organization and stray arguments', () => {
    const unknown = run(['run-job', 'defragment']);
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toContain('Unknown job defragment');
    const nobody = run(['run-job', 'sign-audit-heads', '--organization', '00000000-0000-4000-8000-000000000000']);
    expect(nobody.status).toBe(64);
    expect(nobody.stderr).toContain('No organization with id 00000000-0000-4000-8000-000000000000');
    expect(run(['run-job', 'sign-audit-heads', '--now']).status).toBe(64);
    expect(run(['run-job']).status).toBe(64);
  }, 120_000);
});
