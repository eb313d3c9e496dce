import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSmtpSink } from '../server/test/smtp-sink.js';
import { adminCli, makeDatabaseTemplate, startServer } from './support/server.js';

export const ADMIN = { email: 'ada@acme.test', password: 'correct horse battery', name: 'Ada Admin', firm: 'Acme LLP' };

/**
 * One Strongroom for the run: a fresh DATA_DIR with an organization made by the CLI, mail through a real
 * SMTP server on loopback. Workers find the address and the mail folder in the environment, and the migrated
 * embedded database that each test file's own server starts from (E2E_PG_TEMPLATE).
 */
export default async function globalSetup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-e2e-'));
  const mailDir = path.join(root, 'mail');
  const sink = await startSmtpSink({ dir: mailDir });
  const port = process.env.E2E_PORT!;
  const env = {
    DATA_DIR: path.join(root, 'data'),
    PORT: port,
    APP_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: sink.url,
    MAIL_FROM: 'Strongroom <archive@acme.test>',
  };
  adminCli(
    ['create-org', '--name', ADMIN.firm, '--admin-email', ADMIN.email, '--admin-name', ADMIN.name, '--admin-password', ADMIN.password],
    env,
  );
  const server = await startServer(env);
  process.env.E2E_PG_TEMPLATE = makeDatabaseTemplate(path.join(root, 'template'), env);
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_ROOT = root;
  process.env.E2E_SMTP_URL = sink.url;
  return async () => {
    await server.stop();
    await sink.close();
    fs.rmSync(root, { recursive: true, force: true });
  };
}
