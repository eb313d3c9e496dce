/**
 * The bucket's own settings, as the store reads them: whether it enforces write-once (Object Lock and
 * versioning), and the settings a security review looks at (versioning, public access, policy, lifecycle).
 */
import {
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyStatusCommand,
  GetBucketVersioningCommand,
  GetObjectLockConfigurationCommand,
  GetPublicAccessBlockCommand,
} from '@aws-sdk/client-s3';
import type { BucketSecuritySettings, SettingRead } from '../blob-store.js';
import type { WriteOnceStatus } from '../vault-store.js';
import type { S3Bucket } from './bucket.js';
import { errorName, messageOf } from './errors.js';

export class S3Settings {
  private writeOnceCache: { at: number; status: WriteOnceStatus } | undefined;

  constructor(
    private readonly s3: S3Bucket,
    /** Storage class of vault copies, named in the write-once detail. */
    private readonly vaultStorageClass: string,
  ) {}

  /**
   * Whether the bucket enforces write-once: Object Lock enabled (GetObjectLockConfiguration) and versioning on
   * (GetBucketVersioning). A default retention rule is reported: it would lock every working upload too.
   * Cached for a minute (readiness asks often).
   */
  async writeOnceStatus(): Promise<WriteOnceStatus> {
    const cached = this.writeOnceCache;
    if (cached && cached.at > this.s3.now().getTime() - 60_000) return cached.status;
    const status = await this.readWriteOnceStatus();
    this.writeOnceCache = { at: this.s3.now().getTime(), status };
    return status;
  }

  private async readWriteOnceStatus(): Promise<WriteOnceStatus> {
    const bucket = this.s3.bucket;
    const off = (detail: string): WriteOnceStatus => ({ enforced: false, store: 's3', mode: null, detail });
    let rule = '';
    try {
      const out = await this.s3.client.send(new GetObjectLockConfigurationCommand({ Bucket: bucket }));
      if (out.ObjectLockConfiguration?.ObjectLockEnabled !== 'Enabled') {
        return off(`Object Lock is not enabled on bucket ${bucket}`);
      }
      const retention = out.ObjectLockConfiguration.Rule?.DefaultRetention;
      if (retention) {
        const length = retention.Years ? `${retention.Years} years` : `${retention.Days ?? 0} days`;
        rule = ` The bucket has a default retention rule (${retention.Mode ?? '?'} ${length}): it also locks working uploads, which then cannot be deleted; remove the rule.`;
      }
    } catch (err) {
      const name = errorName(err);
      if (name === 'ObjectLockConfigurationNotFoundError') return off(`Object Lock is not enabled on bucket ${bucket}`);
      return off(`could not read the Object Lock configuration of bucket ${bucket} (${name ?? 'error'}: ${messageOf(err)})`);
    }
    try {
      const versioning = await this.s3.client.send(new GetBucketVersioningCommand({ Bucket: bucket }));
      if (versioning.Status !== 'Enabled') return off(`versioning is not enabled on bucket ${bucket}`);
    } catch (err) {
      return off(`could not read the versioning of bucket ${bucket} (${errorName(err) ?? 'error'}: ${messageOf(err)})`);
    }
    return {
      enforced: true,
      store: 's3',
      mode: 'COMPLIANCE',
      detail: `Object Lock is enabled on bucket ${bucket}; vault objects are written in COMPLIANCE mode (storage class ${this.vaultStorageClass}).${rule}`,
    };
  }

  /** Each setting read on its own: one that cannot be read (no permission, not supported) says why. */
  async securitySettings(): Promise<BucketSecuritySettings> {
    const Bucket = this.s3.bucket;
    const { client } = this.s3;
    return {
      bucket: Bucket,
      versioning: await read(async () => ({ status: (await client.send(new GetBucketVersioningCommand({ Bucket }))).Status })),
      publicAccessBlock: await read(
        async () => (await client.send(new GetPublicAccessBlockCommand({ Bucket }))).PublicAccessBlockConfiguration,
      ),
      policyStatus: await read(async () => ({
        isPublic: (await client.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic === true,
      })),
      lifecycleRules: await read(async () =>
        ((await client.send(new GetBucketLifecycleConfigurationCommand({ Bucket }))).Rules ?? []).map((r) => ({
          enabled: r.Status === 'Enabled',
          abortIncompleteUploadsAfterDays: r.AbortIncompleteMultipartUpload?.DaysAfterInitiation,
        })),
      ),
    };
  }
}

async function read<T>(get: () => Promise<T>): Promise<SettingRead<T>> {
  try {
    return { value: await get() };
  } catch (err) {
    return { error: { name: errorName(err), message: messageOf(err) } };
  }
}
