-- node-path: compiled from pathNamesQuery (nodes.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
with recursive up as (
      select id, parent_id, name, 0 as depth from nodes where id = $1
      union all
      select n.id, n.parent_id, n.name, up.depth + 1 from nodes n join up on n.id = up.parent_id
    )
    select name from up order by depth desc;
-- parameters: ["00000000-0000-4000-8000-00000000000b"]
