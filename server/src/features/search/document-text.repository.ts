import { sql } from 'kysely';
import type { FileTextState } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';

/** A file version whose text a job has claimed, with what reading it needs. */
export type ClaimedText = {
  organizationId: string;
  versionId: string;
  attempts: number;
  storagePath: string;
  fileSize: string;
  mimeType: string | null;
  name: string;
  ocrLanguages: string[];
};

/**
 * Claims the next pending text for the job `jobId` (the given version when named, else the one queued longest):
 * a row claimed by nobody, by a claim that has lapsed, or by this same job (retried after its process died).
 * Rows another job holds are skipped, never waited on. Null when there is none to claim.
 */
export async function claimPendingText(db: Executor, jobId: string, claimSeconds: number, versionId?: string): Promise<ClaimedText | null> {
  const { rows } = await sql<ClaimedText>`
    with target as (
      select t.version_id from file_texts t
       where t.state = 'pending' and (t.claimed_until is null or t.claimed_until < now() or t.claim_job = ${jobId})
         ${versionId === undefined ? sql`` : sql`and t.version_id = ${versionId}`}
       order by t.queued_at
       limit 1
       for update skip locked
    ), claimed as (
      update file_texts t set claim_job = ${jobId}, claimed_until = now() + make_interval(secs => ${claimSeconds}),
             attempts = t.attempts + 1
        from target where t.version_id = target.version_id
      returning t.organization_id, t.version_id, t.node_id, t.attempts
    )
    select c.organization_id as "organizationId", c.version_id as "versionId", c.attempts, v.storage_path as "storagePath",
           v.file_size as "fileSize", v.mime_type as "mimeType", n.name,
           coalesce(s.ocr_languages, '["eng"]'::jsonb) as "ocrLanguages"
      from claimed c
      join node_versions v on v.id = c.version_id
      join nodes n on n.id = c.node_id
      left join search_settings s on s.organization_id = c.organization_id`.execute(db);
  return rows[0] ?? null;
}

/** Where the claimed version's object is now (a vault transfer moves it while its text is read). */
export async function currentStoragePath(db: Executor, organizationId: string, versionId: string): Promise<string | null> {
  const row = await db
    .selectFrom('nodeVersions')
    .select('storagePath')
    .where('organizationId', '=', organizationId)
    .where('id', '=', versionId)
    .executeTakeFirst();
  return row?.storagePath ?? null;
}

export type TextOutcome = {
  state: Exclude<FileTextState, 'pending'>;
  reason: string | null;
  body: string | null;
  ocr: boolean;
  truncated: boolean;
};

/**
 * Writes what was read, once: only while the row is still pending and claimed by this job (a version deleted
 * meanwhile has no row; a second runner's claim was refused). The words are indexed in the organization's language
 * now, the file's name with weight A and the text with B. Answers whether it was written.
 */
export async function writeText(db: Executor, jobId: string, versionId: string, o: TextOutcome): Promise<boolean> {
  const result = await sql`
    update file_texts t
       set state = ${o.state}, reason = ${o.reason}, body = ${o.body}, ocr = ${o.ocr}, truncated = ${o.truncated},
           language = lang.cfg,
           tsv = setweight(to_tsvector(lang.cfg::regconfig, file_name_words(n.name)), 'A')
                 || setweight(to_tsvector(lang.cfg::regconfig, search_words(coalesce(${o.body}::text, ''))), 'B'),
           extracted_at = now(), claim_job = null, claimed_until = null
      from nodes n,
           lateral (select coalesce((select s.language from search_settings s where s.organization_id = n.organization_id), 'english') as cfg) lang
     where t.version_id = ${versionId} and t.claim_job = ${jobId} and t.state = 'pending'
       and n.id = t.node_id`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Whether any pending text is free to claim (unclaimed, or its claim lapsed). */
export async function hasClaimableText(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('fileTexts')
    .select(sql<number>`1`.as('one'))
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('claimedUntil', 'is', null), eb('claimedUntil', '<', sql<Date>`now()`)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The organization's open re-index runs that have no pending text left are finished now. */
export async function finishReindexRuns(db: Executor, organizationId: string): Promise<void> {
  await sql`
    update search_reindex_runs r set finished_at = now(), done = r.total
     where r.organization_id = ${organizationId} and r.finished_at is null
       and not exists (select 1 from file_texts t where t.organization_id = r.organization_id and t.state = 'pending')`.execute(db);
}
