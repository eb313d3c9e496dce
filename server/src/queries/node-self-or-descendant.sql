-- node-self-or-descendant: compiled from selfOrDescendantQuery (nodes.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
with recursive up as (
      select id, parent_id from nodes where id = $1
      union all
      select n.id, n.parent_id from nodes n join up on n.id = up.parent_id
    )
    select exists (select 1 from up where id = $2) as found;
-- parameters: ["00000000-0000-4000-8000-00000000000c","00000000-0000-4000-8000-00000000000b"]
