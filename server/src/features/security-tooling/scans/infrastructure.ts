/**
 * The INFRASTRUCTURE target: whether vaulted files are write-once, and the object store's own settings: the
 * bucket's (versioning, public access, policy, lifecycle), read through the store, or the local data directory's
 * permissions.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BucketSecuritySettings } from '../../../platform/storage/blob-store.js';
import type { AppContext } from '../../../shared/context.js';
import type { FindingValues } from '../security-tooling.repository.js';
import { errorText, finding } from './common.js';

export async function scanInfrastructure(ctx: AppContext): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const status = await ctx.store.writeOnceStatus();
  if (!status.enforced) {
    out.push(
      finding(
        'WRITE_ONCE_OFF',
        'CRITICAL',
        'Vaulted files are not write-once',
        status.detail,
        'Enable Object Lock and versioning on the bucket (or use the local store) before vaulting.',
      ),
    );
  } else {
    out.push(finding('WRITE_ONCE', 'INFO', 'Write-once storage', status.detail, 'None.'));
  }
  const bucket = status.store === 's3' && ctx.config.s3 ? await ctx.store.securitySettings() : null;
  if (bucket) {
    out.push(...bucketFacts(bucket));
  } else {
    out.push(...(await localStoreFacts(ctx.config.dataDir)));
  }
  return out;
}

/** The bucket's settings as the store read them; a setting it could not read is named, with what would allow it. */
function bucketFacts(settings: BucketSecuritySettings): FindingValues[] {
  const Bucket = settings.bucket;
  const out: FindingValues[] = [];
  const { versioning, publicAccessBlock, policyStatus, lifecycleRules } = settings;
  if ('value' in versioning) {
    if (versioning.value.status !== 'Enabled')
      out.push(
        finding(
          'VERSIONING_OFF',
          'HIGH',
          'Bucket versioning is off',
          `Versioning of ${Bucket} is ${versioning.value.status ?? 'never enabled'}.`,
          'Enable versioning (Object Lock needs it).',
        ),
      );
  } else {
    out.push(
      finding(
        'VERSIONING_UNKNOWN',
        'INFO',
        'Bucket versioning could not be read',
        versioning.error.message,
        'Allow s3:GetBucketVersioning to Strongroom.',
      ),
    );
  }
  if ('value' in publicAccessBlock) {
    const c = publicAccessBlock.value;
    const all = c?.BlockPublicAcls && c.BlockPublicPolicy && c.IgnorePublicAcls && c.RestrictPublicBuckets;
    if (!all)
      out.push(
        finding(
          'PUBLIC_ACCESS_NOT_BLOCKED',
          'HIGH',
          'Public access is not fully blocked',
          `The public access block of ${Bucket} is ${JSON.stringify(c ?? {})}.`,
          'Turn on all four public access block settings.',
        ),
      );
  } else {
    out.push(
      publicAccessBlock.error.name === 'NoSuchPublicAccessBlockConfiguration'
        ? finding(
            'PUBLIC_ACCESS_NOT_BLOCKED',
            'HIGH',
            'Public access is not blocked',
            `${Bucket} has no public access block.`,
            'Turn on all four public access block settings.',
          )
        : finding(
            'PUBLIC_ACCESS_UNKNOWN',
            'INFO',
            'The public access block could not be read',
            publicAccessBlock.error.message,
            'Allow s3:GetBucketPublicAccessBlock to Strongroom.',
          ),
    );
  }
  if ('value' in policyStatus) {
    if (policyStatus.value.isPublic)
      out.push(
        finding(
          'BUCKET_PUBLIC',
          'CRITICAL',
          'The bucket is public',
          `The policy of ${Bucket} makes it public.`,
          'Remove the public statements from the bucket policy.',
        ),
      );
  } else if (policyStatus.error.name !== 'NoSuchBucketPolicy') {
    out.push(
      finding(
        'BUCKET_POLICY_UNKNOWN',
        'INFO',
        'The bucket policy status could not be read',
        policyStatus.error.message,
        'Allow s3:GetBucketPolicyStatus to Strongroom.',
      ),
    );
  }
  if ('value' in lifecycleRules) {
    const aborts = lifecycleRules.value.some((r) => r.enabled && r.abortIncompleteUploadsAfterDays !== undefined);
    if (!aborts)
      out.push(
        finding(
          'LIFECYCLE_NO_ABORT',
          'LOW',
          'Unfinished uploads are never cleaned up by the bucket',
          `No enabled lifecycle rule of ${Bucket} aborts incomplete multipart uploads.`,
          'Add a lifecycle rule aborting incomplete multipart uploads after 7 days.',
        ),
      );
  } else {
    out.push(
      lifecycleRules.error.name === 'NoSuchLifecycleConfiguration'
        ? finding(
            'LIFECYCLE_NO_ABORT',
            'LOW',
            'The bucket has no lifecycle rule',
            `${Bucket} has no lifecycle configuration; Strongroom's own cleanup is the only one.`,
            'Add a lifecycle rule aborting incomplete multipart uploads after 7 days.',
          )
        : finding(
            'LIFECYCLE_UNKNOWN',
            'INFO',
            'The lifecycle rules could not be read',
            lifecycleRules.error.message,
            'Allow s3:GetLifecycleConfiguration to Strongroom.',
          ),
    );
  }
  return out;
}

/** The local store's directories: nobody but the server's own account should read or write them. */
async function localStoreFacts(dataDir: string): Promise<FindingValues[]> {
  const out: FindingValues[] = [];
  const dirs = [dataDir];
  try {
    for (const entry of await fs.readdir(dataDir, { withFileTypes: true }))
      if (entry.isDirectory()) dirs.push(path.join(dataDir, entry.name));
  } catch (err) {
    return [finding('DATA_DIR_UNREADABLE', 'INFO', 'The data directory could not be read', errorText(err), 'Check DATA_DIR.')];
  }
  const worldWritable: string[] = [];
  const worldReadable: string[] = [];
  for (const dir of dirs) {
    const mode = (await fs.stat(dir)).mode;
    if (mode & 0o002) worldWritable.push(dir);
    else if (mode & 0o004) worldReadable.push(dir);
  }
  if (worldWritable.length > 0) {
    out.push(
      finding(
        'DATA_DIR_WORLD_WRITABLE',
        'CRITICAL',
        'Anyone on the machine can write the stored files',
        `World-writable: ${worldWritable.join(', ')}.`,
        `chmod -R o-rwx ${dataDir}`,
      ),
    );
  }
  if (worldReadable.length > 0) {
    out.push(
      finding(
        'DATA_DIR_WORLD_READABLE',
        'MEDIUM',
        'Anyone on the machine can read the stored files',
        `World-readable: ${worldReadable.join(', ')}.`,
        `chmod -R o-rwx ${dataDir}`,
      ),
    );
  }
  out.push(
    finding(
      'LOCAL_STORE',
      'INFO',
      'Local object store',
      `Files are stored under ${dataDir}; versioning, public access and lifecycle rules are S3 settings and do not apply.`,
      'None.',
    ),
  );
  return out;
}
