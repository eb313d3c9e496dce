-- matters-count: compiled from countMattersQuery (matters.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
select count(*)::int as "n" from "matters" where "organization_id" = $1 and "is_vaulted" = $2 and ("matter_name" ilike $3 or "matter_number" ilike $4 or "client_name" ilike $5 or "description" ilike $6) and "is_vaulted" = $7 and "client_name" ilike $8 and "responsible_lawyer" ilike $9 and "created_at" >= $10 and "created_at" < $11;
-- parameters: ["00000000-0000-4000-8000-00000000000a",false,"%10\\%\\_off%","%10\\%\\_off%","%10\\%\\_off%","%10\\%\\_off%",false,"%Client Co%","%Jane Counsel%","2026-01-01T00:00:00.000Z","2026-02-01T00:00:00.000Z"]
