// npm run verify-certificate -- <certificate.json> [--files <dir>]
//   [--public-key <key.pem>] [--fingerprint <hex>] [--keys-url <url or saved list>]
//
// Checks a Strongroom vault certificate or certificate of destruction with no server and no database: the file is
// byte for byte what Strongroom signed, the Ed25519 signature holds, the key id is the key's, and the key is the
// installation's. A signature proves nothing until its key is tied to the installation, so at least one trust
// anchor is required and every one given must hold: --public-key (the installation's public key, handed over),
// --fingerprint (the key's sha256, as printed in an engagement letter), or --keys-url (the installation's
// published list, https://<host>/.well-known/strongroom-signing-keys, or a saved copy of it: the key must be
// listed and the certificate issued within the key's notBefore..notAfter). With --files, every file the
// certificate lists must be at <dir>/<its path>, with its size and sha256; a file's earlier versions (listed with
// a lower fileVersion than the same path's latest) at <dir>/<its path>.v<N>, as a download of version N is saved.
// Exit 0 when everything holds, 1 when anything does not (each failure named), 2 on wrong usage or when no
// trusted key was given (the key's fingerprint is printed to compare); OK is printed only with exit 0.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkCertificateText, checkKeyTrust, keyIdOf } from '../server/src/platform/signing-verify.ts';
import { fail, verifierArgs } from './verifier-args.mjs';

const USAGE =
  'usage: npm run verify-certificate -- <certificate.json> [--files <dir>] [--public-key <key.pem>] [--fingerprint <hex>] [--keys-url <url or file>]';

const { file: certificateFile, values, anchors } = await verifierArgs(USAGE, { files: { type: 'string' } });

async function readText(file, what) {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    return fail(`cannot read the ${what} ${file}: ${err.code ?? err.message}`, 2);
  }
}

async function sha256Of(file) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest('hex') };
}

const text = await readText(certificateFile, 'certificate');
const result = checkCertificateText(text);
const problems = [...result.problems];
const payload = result.doc?.payload;
const signerPem = typeof result.doc?.publicKey === 'string' ? result.doc.publicKey : null;
if (anchors.length > 0 && signerPem !== null)
  problems.push(...checkKeyTrust({ publicKeyPem: signerPem, signedAt: payload?.issuedAt }, anchors));
const files = Array.isArray(payload?.files) ? payload.files : [];
let filesChecked = 0;

// The latest version listed for each path is the file itself; an earlier one is <path>.v<N> beside it.
const latest = new Map();
for (const entry of files) {
  const v = Number(entry?.fileVersion ?? 1);
  if (v > (latest.get(String(entry?.path)) ?? 0)) latest.set(String(entry?.path), v);
}
const nameOf = (entry) => {
  const v = Number(entry.fileVersion ?? 1);
  return v < (latest.get(String(entry.path)) ?? v) ? `${entry.path}.v${v}` : String(entry.path);
};

if (values.files !== undefined) {
  const root = path.resolve(values.files);
  for (const entry of files) {
    const where = path.resolve(root, nameOf(entry));
    if (where !== root && !where.startsWith(root + path.sep)) {
      problems.push(`${nameOf(entry)}: the path leads outside ${root}`);
      continue;
    }
    let found;
    try {
      found = await sha256Of(where);
    } catch (err) {
      problems.push(`${nameOf(entry)}: not found (${err.code ?? err.message})`);
      continue;
    }
    filesChecked++;
    if (found.size !== entry.size) problems.push(`${nameOf(entry)}: ${found.size} bytes, the certificate says ${entry.size}`);
    if (found.sha256 !== entry.sha256) problems.push(`${nameOf(entry)}: sha256 ${found.sha256}, the certificate says ${entry.sha256}`);
  }
}

const lines = [];
if (payload && typeof payload === 'object') {
  lines.push(`Certificate: ${payload.kind ?? '?'} issued ${payload.issuedAt ?? '?'}`);
  lines.push(`Organization: ${payload.organization?.name ?? '?'} (${payload.organization?.id ?? '?'})`);
  lines.push(`Matter: ${payload.matter?.matterName ?? '?'} (${payload.matter?.id ?? '?'})`);
  lines.push(`Vaulted: ${payload.matter?.vaultedAt ?? '-'}; retention until ${payload.matter?.retentionExpiresAt ?? 'permanent'}`);
  const versions = payload.totals?.versions;
  const ofVersions = versions !== undefined && versions !== payload.totals?.files ? ` (${versions} versions)` : '';
  lines.push(`Files: ${payload.totals?.files ?? files.length}${ofVersions}, ${payload.totals?.bytes ?? '?'} bytes`);
  if (payload.auditChainHead) lines.push(`Audit chain head: #${payload.auditChainHead.sequence} ${payload.auditChainHead.hash}`);
  const disposition = payload.disposition;
  if (disposition && typeof disposition === 'object') {
    const approvers = Array.isArray(disposition.approvedBy)
      ? disposition.approvedBy.map((a) => `${a?.name ?? '?'} <${a?.email ?? '?'}>`).join(', ')
      : '?';
    const request = disposition.requestId ? `approval request ${disposition.requestId}` : 'no second approver required';
    lines.push(
      `Destruction approved by: ${approvers} on ${disposition.approvedAt ?? '?'} (review ${disposition.reviewId ?? '?'}, ${request})`,
    );
  }
  lines.push(`Signed by key: ${result.doc.keyId ?? '?'}`);
}
const trustedBy = anchors.map((a) =>
  a.kind === 'public-key' ? `public key ${a.source}` : a.kind === 'fingerprint' ? 'fingerprint' : `published keys ${a.source}`,
);
if (trustedBy.length > 0) lines.push(`Trusted key checked against: ${trustedBy.join(', ')}`);
// What the certificate itself says about the store's protection is passed on, whatever else holds.
const warnings = [];
if (payload?.storeProtection?.writeOnce === false)
  warnings.push(String(payload.storeProtection.statement ?? 'the files are not write-once protected'));
const unlocked = files.filter((f) => f && f.lockMode === null).map((f) => String(f.path));
if (unlocked.length > 0 && warnings.length === 0) {
  warnings.push(`${unlocked.length} file(s) were stored without a write-once lock: ${unlocked.join(', ')}`);
}
for (const w of warnings) lines.push(`WARNING: ${w}`);
if (values.files !== undefined) lines.push(`Files checked in ${path.resolve(values.files)}: ${filesChecked} of ${files.length}`);

let fingerprint = '(no readable key)';
try {
  fingerprint = keyIdOf(signerPem);
} catch {
  // An unreadable key is among the problems.
}
const noAnchor =
  `no trusted key was given, so the signature cannot be tied to the installation. The certificate's key fingerprint is\n` +
  `  ${fingerprint}\n` +
  `compare it with the one the installation gave you, then pass --fingerprint <hex>, --public-key <key.pem> or\n` +
  `--keys-url https://<host>/.well-known/strongroom-signing-keys.\n`;

process.stdout.write(`${lines.join('\n')}\n`);
if (problems.length > 0) {
  process.stderr.write(`FAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}\n${anchors.length === 0 ? `Also: ${noAnchor}` : ''}`);
  process.exit(1);
}
if (anchors.length === 0) {
  // Any key makes a valid signature: without one known to be the installation's, nothing is verified.
  process.stderr.write(`NOT VERIFIED: ${noAnchor}`);
  process.exit(2);
}
process.stdout.write(`OK: the signature holds${values.files !== undefined ? ' and every file matches' : ''}.\n`);
process.exit(0);
