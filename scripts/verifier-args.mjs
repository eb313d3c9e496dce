// The command line the offline verifiers share: one file to check, the trust anchors (--public-key,
// --fingerprint, --keys-url; see signing-verify.ts), and any options of the verifier's own. Wrong usage, or an
// anchor that cannot be read, ends the process with exit 2 and the usage line.
import { parseArgs } from 'node:util';
import { loadTrustAnchors } from '../server/src/platform/signing-verify.ts';

/** Writes the message to stderr and exits with the code. */
export function fail(message, code) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Parses the arguments; answers the file, the option values and the loaded trust anchors (possibly none). */
export async function verifierArgs(usage, ownOptions = {}) {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: { ...ownOptions, 'public-key': { type: 'string' }, fingerprint: { type: 'string' }, 'keys-url': { type: 'string' } },
    });
  } catch (err) {
    fail(`${err.message}\n${usage}`, 2);
  }
  if (args.positionals.length !== 1) fail(usage, 2);
  let anchors;
  try {
    anchors = await loadTrustAnchors({
      publicKeyFile: args.values['public-key'],
      fingerprint: args.values.fingerprint,
      keysUrl: args.values['keys-url'],
    });
  } catch (err) {
    fail(`${err.message}\n${usage}`, 2);
  }
  return { file: args.positionals[0], values: args.values, anchors };
}
