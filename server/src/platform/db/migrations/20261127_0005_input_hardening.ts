import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Names arrive in Unicode NFC from now on (the contract normalizes them), so that a composed and a decomposed
 * 'Café' are one name. Names stored before are brought to NFC here too, unless that would make two items of one
 * folder share a name: such a pair is left as it is for the users to rename (the first of several decomposed twins
 * is normalized, the others stay). Matter names, clients and responsible lawyers are normalized alike, so that
 * search and the suggestions group them together. The text is the same to a reader; only its encoding changes.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    with candidates as (
      select id, matter_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid) as parent_key,
             normalize(name, NFC) as nfc,
             row_number() over (
               partition by matter_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(normalize(name, NFC))
               order by created_at, id
             ) as rank
        from nodes
       where name is not nfc normalized
    )
    update nodes set name = c.nfc
      from candidates c
     where nodes.id = c.id
       and c.rank = 1
       and not exists (
         select 1 from nodes o
          where o.matter_id = c.matter_id
            and coalesce(o.parent_id, '00000000-0000-0000-0000-000000000000'::uuid) = c.parent_key
            and o.id <> c.id
            and lower(o.name) = lower(c.nfc)
       )`.execute(db);
  for (const column of ['matter_name', 'client_name', 'responsible_lawyer']) {
    await sql`update matters set ${sql.ref(column)} = normalize(${sql.ref(column)}, NFC) where ${sql.ref(column)} is not nfc normalized`.execute(
      db,
    );
  }
}

/** Nothing to take back: the normalized names read the same. */
async function down(): Promise<void> {}

export const inputHardening: Migration = { up, down };
