// The matter workspace on PostgreSQL at a large matter's size: the calls its page makes over one matter of
// 10,000 folders and files (default), in an organization with other large matters and beside another organization.
import { api } from '../lib/api-client.js';
import { envInt, fmt, fmtInt, percentile } from '../lib/stats.js';
import { callTable, slowest, strongroomOnPostgres, timeCalls } from '../lib/throwaway-postgres.js';
import type { Scenario } from '../lib/types.js';

const TARGET_P95_MS = 100;
const TOP_FOLDERS = 10;
const SUB_FOLDERS = 10;
const VERSIONS = 5;

/**
 * One matter of `nodes` nodes (10 folders of 10 subfolders, the files spread over the 110 folders and the root, one
 * in 1,000 named "Zephyr", the first file with five versions, 200 items in the recycle bin), plus `others` other
 * matters of 1,000 files each in the same organization. Ids come from md5 of their number so the statements can
 * refer to the rows they made.
 */
/** A fixed, valid (version 4 shaped) UUID made from the md5 of a SQL expression. */
const uid = (expr: string) => `overlay(overlay(md5(${expr}) placing '4' from 13) placing '8' from 17)::uuid`;

function seedSql(nodes: number, others: number): string[] {
  const folders = TOP_FOLDERS + TOP_FOLDERS * SUB_FOLDERS;
  const files = nodes - folders;
  const folderId = (t: string) => uid(`'wf' || ${t}`);
  const subId = (t: string, sub: string) => uid(`'ws' || (${t}) || '-' || (${sub})`);
  return [
    `insert into matters (id, organization_id, matter_name, matter_number, client_name, responsible_lawyer, created_by, updated_by)
     select case when j = 0 then $3::uuid else ${uid(`'wm' || j`)} end, $1::uuid, 'Matter ' || j, 'MAT-W-' || lpad(j::text, 5, '0'),
            'Client ' || j % 40, 'Jane Counsel', $2::int, $2::int
       from generate_series(0, ${others}) j`,
    `insert into nodes (id, organization_id, matter_id, parent_id, name, node_type, created_by)
     select ${folderId('t')}, $1::uuid, $3::uuid, null, 'Folder ' || t, 'folder', $2::int from generate_series(1, ${TOP_FOLDERS}) t`,
    `insert into nodes (id, organization_id, matter_id, parent_id, name, node_type, created_by)
     select ${subId('t', 's')}, $1::uuid, $3::uuid, ${folderId('t')}, 'Subfolder ' || s, 'folder', $2::int
       from generate_series(1, ${TOP_FOLDERS}) t, generate_series(1, ${SUB_FOLDERS}) s`,
    // File i goes to folder (i mod 111): 0 is the root, 1..10 the top folders, 11..110 the subfolders.
    `insert into nodes (id, organization_id, matter_id, parent_id, name, node_type, mime_type, file_size, sha256_hash, storage_path,
                        current_version, created_by)
     select ${uid(`'wn' || i`)}, $1::uuid, $3::uuid,
            case when i % ${folders + 1} = 0 then null
                 when i % ${folders + 1} <= ${TOP_FOLDERS} then ${folderId(`(i % ${folders + 1})`)}
                 else ${subId(`((i % ${folders + 1}) - ${TOP_FOLDERS + 1}) / ${SUB_FOLDERS} + 1`, `((i % ${folders + 1}) - ${TOP_FOLDERS + 1}) % ${SUB_FOLDERS} + 1`)} end,
            case when i % 1000 = 7 then 'Zephyr ' else '' end || 'Document ' || i || '.pdf', 'file', 'application/pdf',
            10000 + i, md5(i::text) || md5((i + 1)::text), 'org/' || $1 || '/matters/' || $3 || '/' || md5('wn' || i), 1, $2::int
       from generate_series(1, ${files}) i`,
    `insert into node_versions (organization_id, matter_id, node_id, version_number, file_size, mime_type, sha256_hash, storage_path, created_by)
     select $1::uuid, n.matter_id, n.id, 1, n.file_size, n.mime_type, n.sha256_hash, n.storage_path, $2::int
       from nodes n where n.matter_id = $3::uuid and n.node_type = 'file'`,
    `insert into node_versions (organization_id, matter_id, node_id, version_number, file_size, mime_type, sha256_hash, storage_path, created_by)
     select $1::uuid, $3::uuid, ${uid(`'wn1'`)}, v, 20000 + v, 'application/pdf', md5(v::text) || md5(v::text),
            'org/' || $1 || '/matters/' || $3 || '/v' || v, $2::int
       from generate_series(2, ${VERSIONS}) v`,
    `update nodes set current_version = ${VERSIONS} where id = ${uid(`'wn1'`)}`,
    `insert into nodes (organization_id, matter_id, parent_id, name, node_type, mime_type, file_size, sha256_hash, storage_path, current_version, created_by)
     select $1::uuid, ${uid(`'wm' || j`)}, null, 'Other ' || k || '.pdf', 'file', 'application/pdf', 5000 + k,
            md5(k::text) || md5(j::text), 'org/' || $1 || '/matters/other/' || j || '/' || k, 1, $2::int
       from generate_series(1, ${others}) j, generate_series(1, 1000) k`,
  ];
}

const ms = (n: number) => fmt(n, 1);

export const scenario: Scenario = {
  name: 'workspace-load',
  title: 'Matter workspace with 10,000 folders and files',
  order: 47,
  description:
    "The calls the matter workspace makes, on the real app with PostgreSQL: the matter with its folders and the root's files (the page's first call), a folder's and a subfolder's files, " +
    'search in the matter (selective and broad), a file’s versions and the recycle bin, over one matter of BENCH_WORKSPACE_NODES nodes ' +
    `(default 10,000) among BENCH_WORKSPACE_OTHERS other matters of 1,000 files (default 20). Target: p95 under ${TARGET_P95_MS} ms for each.`,
  async run({ log }) {
    const nodes = envInt('BENCH_WORKSPACE_NODES', 10_000, 500, 200_000);
    const others = envInt('BENCH_WORKSPACE_OTHERS', 20, 0, 500);
    const requests = envInt('BENCH_REQUESTS', 100, 10, 1000);
    const run = await strongroomOnPostgres('strongroom_bench_ws', log);
    try {
      const { sr, pool } = run;
      const matterId = (await pool.query<{ id: string }>(`select ${uid(`'wm0'`)}::text as id`)).rows[0]!.id;
      const seedStart = performance.now();
      const params = [sr.admin.organizationId, sr.admin.userId, matterId];
      // Each statement gets the parameters it names.
      for (const stmt of seedSql(nodes, others))
        await pool.query(stmt, params.slice(0, Math.max(0, ...[...stmt.matchAll(/\$(\d)/g)].map((m) => Number(m[1])))));
      // 200 of the matter's files in the recycle bin, as one deletion each would leave them.
      await pool.query(
        `with picked as (select id from nodes where matter_id = $3::uuid and node_type = 'file' and name like 'Document %0.pdf' limit 200),
              entries as (insert into bin_entries (organization_id, matter_id, node_id, original_path, deleted_by, purge_after, file_count, total_bytes)
                           select $1::uuid, $3::uuid, id, '/deleted', $2::int, now() + interval '30 days', 1, 1000 from picked returning id, node_id)
         update nodes set bin_entry_id = entries.id from entries where nodes.id = entries.node_id`,
        params,
      );
      for (const table of ['matters', 'nodes', 'node_versions', 'bin_entries']) await pool.query(`vacuum analyze ${table}`);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      const counts = (
        await pool.query(
          `select (select count(*) from nodes where matter_id = $1::uuid)::int as inMatter, (select count(*) from nodes)::int as allNodes,
                  (select count(*) from matters)::int as matters`,
          [matterId],
        )
      ).rows[0] as { inmatter: number; allnodes: number; matters: number };
      log(`seeded in ${fmt(seedSeconds)} s: ${JSON.stringify(counts)}`);

      const detailPath = `/_api/matters/detail?matterId=${matterId}`;
      const detailBytes = JSON.stringify(await api(sr, 'GET', detailPath)).length;
      const pagePath = `${detailPath}&filesIn=root`;
      const pageBytes = JSON.stringify(await api(sr, 'GET', pagePath)).length;
      const ids = (
        await pool.query<{ versioned: string; folder: string; sub: string }>(
          `select ${uid(`'wn1'`)}::text as versioned, ${uid(`'wf' || 3`)}::text as folder, ${uid(`'ws' || 3 || '-' || 4`)}::text as sub`,
        )
      ).rows[0]!;
      const versioned = ids.versioned;
      const results = await timeCalls(
        [
          { label: 'the matter with its folders and the root’s files (the page’s first call)', run: () => api(sr, 'GET', pagePath) },
          { label: 'a folder’s files (opening a folder)', run: () => api(sr, 'GET', `${detailPath}&filesIn=${ids.folder}`) },
          { label: 'a subfolder’s files (opening a subfolder)', run: () => api(sr, 'GET', `${detailPath}&filesIn=${ids.sub}`) },
          { label: 'search in the matter: "zephyr" (10 hits)', run: () => api(sr, 'GET', `/_api/search?q=zephyr&matterId=${matterId}`) },
          {
            label: 'search in the matter: "document" (every file)',
            run: () => api(sr, 'GET', `/_api/search?q=document&matterId=${matterId}`),
          },
          { label: `a file’s versions (${VERSIONS})`, run: () => api(sr, 'GET', `/_api/nodes/versions?nodeId=${versioned}`) },
          { label: 'recycle bin (200 items)', run: () => api(sr, 'GET', `/_api/nodes/bin?matterId=${matterId}`) },
        ],
        requests,
        log,
      );
      // The whole tree in one answer (every file, as the call answers without filesIn): not a call the page makes,
      // timed beside the target's calls to show what a client that asks for everything waits.
      const [whole] = await timeCalls(
        [{ label: 'the whole tree, every file (no filesIn; not a call of the page)', run: () => api(sr, 'GET', detailPath) }],
        requests,
        log,
      );
      const worst = slowest(results);
      const met = percentile(worst.times, 95) < TARGET_P95_MS;
      const tree = results[0]!;
      return {
        variant: 'postgres',
        command: 'npm run bench -- workspace-load   # BENCH_WORKSPACE_NODES, BENCH_WORKSPACE_OTHERS, BENCH_REQUESTS',
        headline: `matter with ${fmtInt(counts.inmatter)} nodes: page's first call p95 ${ms(percentile(tree.times, 95))} ms (whole tree ${ms(percentile(whole!.times, 95))} ms); slowest call of the page p95 ${ms(percentile(worst.times, 95))} ms ("${worst.label}"): target < ${TARGET_P95_MS} ms ${met ? 'met' : 'NOT met'}`,
        summary: [
          `- One matter of ${fmtInt(counts.inmatter)} nodes (${TOP_FOLDERS + TOP_FOLDERS * SUB_FOLDERS} folders, two levels deep; 200 files in the recycle bin; one file with ${VERSIONS} versions) among ${fmtInt(counts.matters)} matters and ${fmtInt(counts.allnodes)} nodes; PostgreSQL ${run.pgVersion}; seeded and analyzed in ${fmt(seedSeconds)} s. The page's first answer (every folder, the root's files) is ${fmtInt(pageBytes)} bytes of JSON; the whole tree ${fmtInt(detailBytes)}.`,
          `- **Slowest call p95: ${ms(percentile(worst.times, 95))} ms (${worst.label}); target < ${TARGET_P95_MS} ms ${met ? 'met' : 'not met'}.**`,
        ],
        tables: [callTable([...results, whole!], requests)],
        notes: [
          '- The administrator’s session. The workspace asks for the matter with every folder and the files of the open folder only (`filesIn`), and again for each folder it opens; the whole tree (every file) is what the same call answers without `filesIn`. Answers are compressed on the way as a browser gets them (`fetch` accepts gzip, deflate and br) and decompressed by the bench client in the timing.',
          `- Server: the app from \`buildApp\` (pool of 10), LOG_LEVEL=silent. ${run.ownDb ? 'The database was made for the run and dropped after it.' : 'Database: BENCH_DATABASE_URL as given.'}`,
          '- The machine is shared with other work (see the load average): compare calls with each other rather than reading much into absolute milliseconds.',
        ],
      };
    } finally {
      await run.close();
    }
  },
};
