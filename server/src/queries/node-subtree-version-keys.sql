-- node-subtree-version-keys: compiled from subtreeVersionKeysQuery (node-versions.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
with recursive sub as (
      select id from nodes where id = $1 and organization_id = $2
      union all
      select n.id from nodes n join sub on n.parent_id = sub.id
    )
    select distinct storage_path from node_versions where node_id in (select id from sub) and organization_id = $3;
-- parameters: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000a","00000000-0000-4000-8000-00000000000a"]
