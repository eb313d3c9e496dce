-- client-suggestions: compiled from nameSuggestionsQuery(db, 'clientName', ...) (matters.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
select max("client_name") as "name", count(*)::int as "matter_count" from "matters" where "organization_id" = $1 and "client_name" is not null and "client_name" != $2 and "is_vaulted" = $3 and "client_name" ilike $4 group by lower("client_name") order by bool_or(lower("client_name") like $5) desc, count(*) desc, lower(max("client_name")) asc limit $6;
-- parameters: ["00000000-0000-4000-8000-00000000000a","",false,"%Acme%","acme%",10]
