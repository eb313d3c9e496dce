-- matters-count: compiled from countMattersQuery (matters.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
select count(*)::int as "n" from (select 1 as "one" from "matters" where "organization_id" = $1 and "is_vaulted" = $2 and "list_search_text" like lower($3) and "is_vaulted" = $4 and "client_name" ilike $5 and "responsible_lawyer" ilike $6 and "created_at" >= $7 and "created_at" < $8 limit $9) as "matching";
-- parameters: ["00000000-0000-4000-8000-00000000000a",false,"%10\\%\\_off%",false,"%Client Co%","%Jane Counsel%","2026-01-01T00:00:00.000Z","2026-02-01T00:00:00.000Z",10001]
