-- matter-number-counter: compiled from nextMatterCounterQuery (matters.repository.ts) (server/src/queries/queries.test.ts).
-- Review a change to this file like code; after review, regenerate every snapshot with:
--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
insert into "matter_number_counters" ("organization_id", "year", "last_value") values ($1, $2, (
    select coalesce(max(substring(upper(matter_number) from $3)::int), 0)
      from matters where organization_id = $4 and upper(matter_number) like $5
  ) + 1) on conflict ("organization_id", "year") do update set "last_value" = greatest(matter_number_counters.last_value, (
    select coalesce(max(substring(upper(matter_number) from $6)::int), 0)
      from matters where organization_id = $7 and upper(matter_number) like $8
  )) + 1 returning "last_value";
-- parameters: ["00000000-0000-4000-8000-00000000000a",2026,"^MAT-2026-(\\d{1,9})$","00000000-0000-4000-8000-00000000000a","MAT-2026-%","^MAT-2026-(\\d{1,9})$","00000000-0000-4000-8000-00000000000a","MAT-2026-%"]
