-- lawyer-suggestions: compiled from nameSuggestionsQuery(db, 'responsibleLawyer', ...) (matters.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
select max("responsible_lawyer") as "name", count(*)::int as "matter_count" from "matters" where "organization_id" = $1 and "responsible_lawyer" is not null and "responsible_lawyer" != $2 and "responsible_lawyer" ilike $3 group by lower("responsible_lawyer") order by bool_or(lower("responsible_lawyer") like $4) desc, count(*) desc, lower(max("responsible_lawyer")) asc limit $5;
-- parameters: ["00000000-0000-4000-8000-00000000000a","","%Jane%","jane%",10]
