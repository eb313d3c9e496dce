// npm run verify-certificate -- <certificate.json> [--files <dir>] [--public-key <key.pem>]
//
// Checks a Strongroom vault certificate with no server, no database and no network: the file is byte for byte
// what Strongroom signed, the Ed25519 signature holds, the key id is the key's, and (with --public-key) the key is
// the installation's. With --files, every file the certificate lists must be at <dir>/<its path>, with its size
// and sha256. Exit 0 when everything holds, 1 when anything does not (each failure named), 2 on wrong usage.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkCertificateText } from '../server/src/platform/signing-verify.ts';

const USAGE = 'usage: npm run verify-certificate -- <certificate.json> [--files <dir>] [--public-key <key.pem>]';

function fail(message, code) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({ allowPositionals: true, options: { files: { type: 'string' }, 'public-key': { type: 'string' } } });
} catch (err) {
  fail(`${err.message}\n${USAGE}`, 2);
}
if (args.positionals.length !== 1) fail(USAGE, 2);
const [certificateFile] = args.positionals;

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
const trustedPublicKeyPem = args.values['public-key'] === undefined ? undefined : await readText(args.values['public-key'], 'public key');
const result = checkCertificateText(text, { trustedPublicKeyPem });
const problems = [...result.problems];
const payload = result.doc?.payload;
const files = Array.isArray(payload?.files) ? payload.files : [];
let filesChecked = 0;

if (args.values.files !== undefined) {
  const root = path.resolve(args.values.files);
  for (const entry of files) {
    const where = path.resolve(root, String(entry.path));
    if (where !== root && !where.startsWith(root + path.sep)) {
      problems.push(`${entry.path}: the path leads outside ${root}`);
      continue;
    }
    let found;
    try {
      found = await sha256Of(where);
    } catch (err) {
      problems.push(`${entry.path}: not found (${err.code ?? err.message})`);
      continue;
    }
    filesChecked++;
    if (found.size !== entry.size) problems.push(`${entry.path}: ${found.size} bytes, the certificate says ${entry.size}`);
    if (found.sha256 !== entry.sha256) problems.push(`${entry.path}: sha256 ${found.sha256}, the certificate says ${entry.sha256}`);
  }
}

const lines = [];
if (payload && typeof payload === 'object') {
  lines.push(`Certificate: ${payload.kind ?? '?'} issued ${payload.issuedAt ?? '?'}`);
  lines.push(`Organization: ${payload.organization?.name ?? '?'} (${payload.organization?.id ?? '?'})`);
  lines.push(`Matter: ${payload.matter?.matterName ?? '?'} (${payload.matter?.id ?? '?'})`);
  lines.push(`Vaulted: ${payload.matter?.vaultedAt ?? '-'}; retention until ${payload.matter?.retentionExpiresAt ?? 'permanent'}`);
  lines.push(`Files: ${payload.totals?.files ?? files.length}, ${payload.totals?.bytes ?? '?'} bytes`);
  if (payload.auditChainHead) lines.push(`Audit chain head: #${payload.auditChainHead.sequence} ${payload.auditChainHead.hash}`);
  lines.push(
    `Signed by key: ${result.doc.keyId ?? '?'}${trustedPublicKeyPem === undefined ? ' (not pinned: pass --public-key to check it is yours)' : ''}`,
  );
}
if (args.values.files !== undefined) lines.push(`Files checked in ${path.resolve(args.values.files)}: ${filesChecked} of ${files.length}`);

if (problems.length === 0) {
  process.stdout.write(
    `${lines.join('\n')}\nOK: the signature holds${args.values.files !== undefined ? ' and every file matches' : ''}.\n`,
  );
  process.exit(0);
}
process.stdout.write(`${lines.join('\n')}\n`);
process.stderr.write(`FAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
process.exit(1);
