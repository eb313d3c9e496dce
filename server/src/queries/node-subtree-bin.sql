-- node-subtree-bin: compiled from binSubtreeQuery (bin.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
with recursive sub as (
      select id from nodes where id = $1 and organization_id = $2 and bin_entry_id is null
      union all
      select n.id from nodes n join sub on n.parent_id = sub.id where n.bin_entry_id is null
    )
    update nodes set bin_entry_id = $3, updated_at = now()
    where id in (select id from sub) and organization_id = $4
    returning id, node_type, file_size;
-- parameters: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000a","00000000-0000-4000-8000-00000000000c","00000000-0000-4000-8000-00000000000a"]
