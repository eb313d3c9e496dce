// npm run verify-audit -- <export.ndjson> [--public-key <key.pem>] [--fingerprint <hex>] [--keys-url <url or saved list>]
//
// Checks an audit chain export (GET /_api/audit-logs/chain-export) with no server and no database: every entry
// hashes to its hash and links to the entry before it, the entries run in sequence without a gap, every signed
// head and the signed summary hold under a key tied to the installation (at least one trust anchor, as for
// verify-certificate), and the summary's sha256 covers every line before it, byte for byte. A range that starts
// mid-chain starts from its first entry's prevHash: a signed head at the position before proves it, or it is
// stated as unproven. It says whether the newest entry is covered by a signed head, or up to which entry the log
// is proven complete.
// Exit 0 when everything holds, 1 naming the first bad entry (its sequence number and why) and every other
// problem, 2 on wrong usage or when no trusted key was given.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { checkCertificateText, checkKeyTrust, checkSignedCertificate } from '../server/src/platform/signing-verify.ts';
import { entryHash, GENESIS_HASH } from '../server/src/shared/audit-hash.ts';
import { fail, verifierArgs } from './verifier-args.mjs';

const USAGE = 'usage: npm run verify-audit -- <export.ndjson> [--public-key <key.pem>] [--fingerprint <hex>] [--keys-url <url or file>]';

const { file: exportFile, anchors } = await verifierArgs(USAGE);

/** The file's lines as they are, each with its bytes (a final line without a newline is one too). */
async function* linesOf(file) {
  let rest = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    rest = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let at;
    while ((at = rest.indexOf(0x0a)) >= 0) {
      yield rest.subarray(0, at + 1);
      rest = rest.subarray(at + 1);
    }
  }
  if (rest.length) yield rest;
}

const problems = [];
/** A problem about entry `seq` (null: about the export as a whole); the first by position is named first. */
const problem = (seq, reason) => problems.push({ seq, order: problems.length, reason });

const digest = createHash('sha256');
let lineNo = 0;
let header = null;
let summary = null;
let summaryDigest = null;
let first = null;
let last = null;
let count = 0;
const hashes = new Map();
const heads = [];

try {
  for await (const bytes of linesOf(exportFile)) {
    lineNo += 1;
    const text = bytes.toString('utf8');
    if (summary) problem(null, `line ${lineNo} comes after the signed summary`);
    let doc;
    try {
      doc = JSON.parse(text);
    } catch {
      problem(last ? last.seq + 1 : null, `line ${lineNo} is not JSON`);
      digest.update(bytes);
      continue;
    }
    if (!text.endsWith('\n')) problem(null, `line ${lineNo} does not end with a newline`);
    if (lineNo === 1) {
      if (doc?.type !== 'header' || doc.format !== 'strongroom-audit-chain-export')
        problem(null, 'the first line is not the header of an audit chain export');
      header = doc;
    } else if (doc?.type === 'entry') {
      checkEntry(doc);
    } else if (doc?.payload?.kind === 'audit-chain-head') {
      heads.push({ text, doc, lineNo });
    } else if (doc?.type === 'summary') {
      summary = doc;
      summaryDigest = digest.copy().digest('hex');
    } else {
      problem(null, `line ${lineNo} is neither an entry, a signed head nor the summary`);
    }
    digest.update(bytes);
  }
} catch (err) {
  fail(`cannot read the export ${exportFile}: ${err.code ?? err.message}`, 2);
}

function checkEntry(e) {
  const seq = e.seq;
  if (!Number.isSafeInteger(seq) || seq < 1) {
    problem(last ? last.seq + 1 : null, `line ${lineNo} is an entry without a valid sequence number`);
    return;
  }
  if (header && (e.organizationId !== header.organizationId || e.chainKey !== header.organizationId)) {
    problem(seq, `entry ${seq}: belongs to another organization's chain`);
  }
  if (last === null) {
    if (seq === 1 && e.prevHash !== GENESIS_HASH) problem(seq, 'entry 1: its prevHash is not the start of a chain');
  } else if (seq > last.seq + 1) {
    problem(last.seq + 1, last.seq + 2 === seq ? `entry ${last.seq + 1} is missing` : `entries ${last.seq + 1} to ${seq - 1} are missing`);
  } else if (seq <= last.seq) {
    problem(seq, `entry ${seq} is out of order (it comes after entry ${last.seq})`);
  } else if (e.prevHash !== last.hash) {
    problem(seq, `entry ${seq}: does not link to the entry before it (its prevHash is not entry ${last.seq}'s hash)`);
  }
  if (e.details === null || typeof e.details !== 'object') {
    problem(
      seq,
      `entry ${seq}: its details are missing (an archived entry whose archive could not be read), so its hash cannot be checked`,
    );
  } else {
    let computed;
    try {
      computed = entryHash(e.prevHash, { ...e, seq: String(seq), createdAt: new Date(e.createdAt) });
    } catch {
      computed = null;
    }
    if (computed !== e.hash) problem(seq, `entry ${seq}: altered (its fields do not hash to its hash)`);
  }
  first ??= { seq, prevHash: e.prevHash, hash: e.hash };
  if (last === null || seq > last.seq) last = { seq, hash: e.hash };
  hashes.set(seq, e.hash);
  count += 1;
}

if (!header) problem(null, 'the export is empty');

/** Whether a signature is tied to the installation by the anchors; answers the problems. */
function trustProblems(publicKeyPem, signedAt) {
  return anchors.length ? checkKeyTrust({ publicKeyPem, signedAt }, anchors) : [];
}

let startProven = false;
let provenUpTo = null;
for (const h of heads) {
  const p = h.doc.payload;
  const seq = Number.isSafeInteger(p.seq) ? p.seq : null;
  const what = `the signed head at entry ${seq ?? '?'} (line ${h.lineNo})`;
  const check = checkCertificateText(h.text);
  for (const reason of check.problems) problem(seq, `${what}: ${reason}`);
  for (const reason of trustProblems(h.doc.publicKey, p.signedAt)) problem(seq, `${what}: ${reason}`);
  if (!check.ok) continue;
  if (header && p.organizationId !== header.organizationId) {
    problem(seq, `${what}: belongs to another organization`);
    continue;
  }
  if (first && seq === first.seq - 1) {
    if (p.hash !== first.prevHash) problem(first.seq, `entry ${first.seq}: its prevHash is not the hash ${what} vouches for`);
    else startProven = true;
  } else if (first && seq >= first.seq && seq <= last.seq) {
    if (hashes.get(seq) !== p.hash) problem(seq, `entry ${seq}: differs from ${what}`);
    else if (provenUpTo === null || seq > provenUpTo.seq) provenUpTo = { seq, signedAt: p.signedAt };
  } else {
    problem(seq, `${what} is outside the exported entries`);
  }
}

if (!summary) {
  problem(null, 'the signed summary (the last line) is missing: the export was cut short');
} else {
  const p = summary.payload ?? {};
  const signed = {
    payload: summary.payload,
    algorithm: summary.algorithm,
    keyId: summary.keyId,
    publicKey: summary.publicKey,
    signature: summary.signature,
  };
  for (const reason of checkSignedCertificate(signed).problems) problem(null, `the summary: ${reason}`);
  for (const reason of trustProblems(summary.publicKey, p.generatedAt)) problem(null, `the summary: ${reason}`);
  if (p.linesSha256 !== summaryDigest)
    problem(null, 'the lines before the summary are not the ones it signed: a line was changed, added, dropped or moved');
  if (p.count !== count) problem(null, `the summary counts ${p.count} entries, the export holds ${count}`);
  if ((p.firstSeq ?? null) !== (first?.seq ?? null) || (p.firstHash ?? null) !== (first?.hash ?? null))
    problem(first?.seq ?? null, `the summary's first entry (${p.firstSeq}) is not the export's first entry (${first?.seq ?? 'none'})`);
  if ((p.lastSeq ?? null) !== (last?.seq ?? null) || (p.lastHash ?? null) !== (last?.hash ?? null))
    problem(last?.seq ?? null, `the summary's last entry (${p.lastSeq}) is not the export's last entry (${last?.seq ?? 'none'})`);
  if (header && p.organizationId !== header.organizationId) problem(null, 'the summary belongs to another organization');
}

if (anchors.length === 0) {
  const keyId = summary?.keyId ?? '(none found)';
  fail(
    `No trusted key was given, so these signatures cannot be tied to the installation; nothing was verified.\n` +
      `The summary is signed with key ${keyId}: compare its fingerprint, then run again with --fingerprint, --public-key or --keys-url.\n${USAGE}`,
    2,
  );
}

if (problems.length) {
  problems.sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity) || a.order - b.order);
  const firstBad = problems[0];
  process.stdout.write(`FAILED: ${firstBad.seq === null ? firstBad.reason : `first bad entry ${firstBad.seq}: ${firstBad.reason}`}\n`);
  for (const p of problems.slice(1)) process.stdout.write(`  - ${p.reason}\n`);
  process.exit(1);
}

const out = [];
if (count === 0) {
  out.push(`OK: the export of organization ${header.organizationId} holds no entries; its summary is signed by a trusted key.`);
} else {
  out.push(
    `OK: entries ${first.seq} to ${last.seq} (${count}) of organization ${header.organizationId}: every hash, link and signature holds.`,
  );
  if (first.seq === 1) out.push('Start: the range begins at the first entry of the chain.');
  else if (startProven) out.push(`Start: entry ${first.seq}'s prevHash is proven by the signed head at entry ${first.seq - 1}.`);
  else out.push(`Start: unproven. No signed head at entry ${first.seq - 1} vouches for the hash entry ${first.seq} starts from.`);
  if (provenUpTo && provenUpTo.seq === last.seq)
    out.push(`Complete: the newest entry (${last.seq}) is covered by a signed head (signed at ${provenUpTo.signedAt}).`);
  else if (provenUpTo)
    out.push(
      `Complete up to entry ${provenUpTo.seq} (signed head of ${provenUpTo.signedAt}); entries ${provenUpTo.seq + 1} to ${last.seq} are not covered by a signed head.`,
    );
  else out.push('Complete: unproven. No signed head within the range vouches for these entries.');
}
process.stdout.write(`${out.join('\n')}\n`);
