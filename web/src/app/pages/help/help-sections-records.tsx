import { SETTINGS_LIMITS, UPLOAD_LIMITS } from '@strongroom/contracts';
import type { HelpSection } from './help-section';
import { Code, Command, H3, Ol, P, Ul, Where } from './help-text';

const MiB = 1024 * 1024;

/** Legal hold, the vault, retention, uploads, same-name files and an auditor's checks: what Strongroom does, as built. */
export const RECORDS_SECTIONS: HelpSection[] = [
  {
    id: 'legal-hold',
    title: 'Legal hold',
    body: (
      <>
        <P>
          An administrator applies a legal hold to a matter from the matter's page, with a reason of at least 10 characters. While the hold
          is on, the matter takes no changes: no uploads, new folders, renames, moves or deletions, by anyone. Its files can still be opened
          and downloaded by those allowed to.
        </P>
        <Ul>
          <li>A matter under legal hold cannot be vaulted: remove the hold first.</li>
          <li>
            A hold on a vaulted matter is carried onto its write-once copies, and keeps them past the end of their retention: nothing is
            deleted while the hold is on.
          </li>
          <li>
            An administrator can remove the hold (a reason is optional). That restores changes to a matter that is not vaulted; a vaulted
            matter stays read-only. Applying and removing are both recorded in the audit log.
          </li>
        </Ul>
      </>
    ),
  },
  {
    id: 'vault',
    title: 'The vault: what it does and what it cannot undo',
    body: (
      <>
        <P>
          Vaulting a matter copies each of its files, every version of each, into write-once storage, locked until the vaulting date plus
          the retention period chosen in the vault dialog. Once the copy is done and every file's size and SHA-256 is checked, Strongroom
          signs a <Where>vault certificate</Where> with your installation's key and stores it under the same kind of lock.
        </P>
        <H3>What cannot be undone</H3>
        <Ul>
          <li>A vaulted matter is never un-vaulted. It stays read-only for good.</li>
          <li>
            The lock cannot be shortened or removed by anyone: not an administrator, not whoever runs the server, and on Amazon S3 with
            Object Lock not even the storage account's owner.
          </li>
          <li>There is no Undo for vaulting. Choose the retention period with care: it cannot be made shorter later.</li>
        </Ul>
        <P>
          Strongroom re-reads every vaulted file on a schedule and reports any change. The certificate, the chain-of-custody report and the
          vault's history are on the <Where>Vault</Where> page. If your installation's storage does not enforce write-once locks,{' '}
          <Where>Settings → Retention &amp; Vault</Where> says so, and vaulting is refused unless the operator has allowed it for evaluation
          (the certificate then says the files are not write-once protected).
        </P>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'Retention',
    body: (
      <>
        <P>
          Each vaulted matter keeps its files for the retention period chosen when it was vaulted (1 to 100 years). Your firm's default,
          offered in the vault dialog, is set by an administrator in <Where>Settings → Retention &amp; Vault</Where> (7 years unless
          changed).
        </P>
        <P>
          When a matter's retention period is over and it is not under legal hold, a daily job deletes its vaulted files and signs a{' '}
          <Where>certificate of destruction</Where> listing them. A matter whose retention has ended is read-only.
        </P>
      </>
    ),
  },
  {
    id: 'uploads',
    title: 'Uploads and resume',
    body: (
      <>
        <P>
          Upload files into a matter's folder with the <Where>Upload Files</Where> dialog. Only document, image, email, audio, video and
          archive types are accepted (for example PDF, Word, Excel, EML, MSG, JPEG, ZIP); programs and scripts never are. A file may be up
          to {UPLOAD_LIMITS.defaultMaxFileBytes / (1024 * MiB)} GB unless your installation sets another limit. Strongroom checks each
          file's SHA-256 against the bytes it stored before the file appears.
        </P>
        <H3>Large files resume</H3>
        <Ul>
          <li>
            Files of {UPLOAD_LIMITS.multipartThreshold / MiB} MB or more are sent in {UPLOAD_LIMITS.chunkSize / MiB} MB parts. If the
            connection drops, <Where>Retry</Where> sends only the parts that are missing.
          </li>
          <li>
            After a reload or a crash of the browser, upload the same file again into the same folder, from the same browser: the parts
            already stored are kept (the list says “resumed, N parts already stored”).
          </li>
          <li>
            An upload left unfinished is removed after {UPLOAD_LIMITS.incompleteUploadDays} days. Logging out cancels running uploads and
            forgets their resume state on that browser.
          </li>
        </Ul>
      </>
    ),
  },
  {
    id: 'versions',
    title: 'Versions and files with the same name',
    body: (
      <>
        <P>
          Strongroom keeps every version of a file. Uploading a file whose name is already used in the folder asks what to do: add it as a
          new version of that file (the default), keep both (the new one is named “name (2).ext”), or skip it. When several files clash,
          Apply to all gives the same answer for the rest.
        </P>
        <P>
          A file's <Where>Versions</Where> (in its menu, and under its preview) lists each version with its number, size, SHA-256, who added
          it and when. An earlier version can be previewed and downloaded, and <Where>Restore</Where> makes it current again as a new
          version: nothing is ever overwritten. Under legal hold and in the vault no version can be added or restored. Vaulting copies every
          version, and the vault certificate lists each version's SHA-256.
        </P>
      </>
    ),
  },
  {
    id: 'recycle-bin',
    title: 'Deleting and the recycle bin',
    body: (
      <>
        <P>
          Deleting a file or folder moves it to the matter's <Where>Recycle bin</Where> (the button above the contents). It stays there for
          your firm's bin period ({SETTINGS_LIMITS.binRetentionDaysDefault} days unless an administrator changes it in{' '}
          <Where>Settings → Retention &amp; Vault</Where>). <Where>Undo</Where> in the message after deleting puts it back at once; from the
          bin, anyone who may delete can restore it to its folder.
        </P>
        <P>
          When the bin period is over, a daily job deletes the item for good, with every version of its files: that cannot be undone.
          Matters under legal hold and vaulted matters cannot delete anything.
        </P>
      </>
    ),
  },
  {
    id: 'guests',
    title: 'Guests and what they can do',
    body: (
      <>
        <P>
          A guest (outside counsel, a client) sees only the matters an administrator shares with them, and changes nothing in them. The
          administrator shares a matter from <Where>Settings → Team &amp; Permissions</Where>, in the guest's <Where>Shared matters</Where>,
          and chooses per matter:
        </P>
        <Ul>
          <li>
            <Where>Can download</Where>: the guest opens the matter and downloads its files. Each download is recorded in the audit log.
          </li>
          <li>
            <Where>View only</Where>: the guest sees the folders and files but cannot download them.
          </li>
        </Ul>
        <P>
          The choice can be changed or the sharing stopped at any time. In <Where>Settings</Where> a guest has only their own profile: their
          details, password, second factor and recovery codes.
        </P>
      </>
    ),
  },
  {
    id: 'verifying',
    title: 'How an auditor verifies a vault certificate and the audit trail',
    body: (
      <>
        <P>
          Vault certificates, certificates of destruction and the audit trail are signed with your installation's Ed25519 key. Anyone can
          check them offline, with the Strongroom source and no access to your systems, trusting nothing but the key's fingerprint.
        </P>
        <H3>1. The fingerprint</H3>
        <P>
          An administrator finds it in <Where>Settings → Retention &amp; Vault</Where> (with a Copy button), and should hand it to the
          auditor on paper, such as in the engagement letter. Every key the installation has signed with is also published at{' '}
          <Code>/.well-known/strongroom-signing-keys</Code>.
        </P>
        <H3>2. A vault certificate</H3>
        <P>
          Download the certificate from the matter on the Vault page (it is the signed file as stored), with the files if they are to be
          checked too, then run:
        </P>
        <Command>npm run verify-certificate -- certificate.json --fingerprint &lt;hex&gt; --files &lt;folder&gt;</Command>
        <P>
          Instead of <Code>--fingerprint</Code>, <Code>--public-key &lt;key.pem&gt;</Code> or{' '}
          <Code>--keys-url https://&lt;host&gt;/.well-known/strongroom-signing-keys</Code> may be given. It prints <Code>OK</Code> and exits
          0 only when the signature holds, the key is the trusted one and every file's size and SHA-256 match; it exits 1 naming each
          failure, and 2 when no trusted key was given.
        </P>
        <H3>3. The audit trail</H3>
        <Ol>
          <li>
            An administrator exports the signed chain for a date range with the call{' '}
            <Code>GET /_api/audit-logs/chain-export?startDate=&amp;endDate=</Code>, a fresh code in the <Code>X-MFA-Token</Code> header: a
            file of JSON lines with every entry, the signed heads that vouch for them and a signed summary.
          </li>
          <li>
            The auditor runs <Code>npm run verify-audit -- chain.ndjson --fingerprint &lt;hex&gt;</Code>. It checks every hash, link and
            signature, exits 1 naming the first bad entry, and says up to which entry the log is proven complete by a signed head.
          </li>
        </Ol>
        <P>
          What a signature cannot prove: a vault certificate states what the storage confirmed at the time of the copy (ongoing re-reads
          cover later); the audit export proves nothing about entries written after its newest signed head, at most about a minute of
          history.
        </P>
      </>
    ),
  },
];
