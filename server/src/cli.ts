import { parseArgs } from 'node:util';
import { setupRequest } from '@strongroom/contracts';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, migrateToLatest, openDatabase } from './platform/db/database.js';
import { createOrganizationFromCli } from './features/setup/setup.service.js';
import { AppError } from './shared/errors.js';
import { DataDirUnsafeError, ownerOnlyFiles, secureDataDir, usesDataDir } from './process.js';

const USAGE = `Usage: npm run admin -- create-org --name "Acme LLP" --admin-email ada@acme.test --admin-name "Ada Admin" --admin-password "..."

Honours the same environment as the server (DATA_DIR, DATABASE_URL, ...). With the embedded database
(no DATABASE_URL) the server must be stopped first: one process at a time may open DATA_DIR.`;

async function createOrg(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      'admin-password': { type: 'string' },
    },
    strict: true,
  });
  const parsed = setupRequest.omit({ setupToken: true }).safeParse({
    organizationName: values.name,
    adminEmail: values['admin-email'],
    adminName: values['admin-name'],
    adminPassword: values['admin-password'],
  });
  if (!parsed.success) {
    const flags: Record<string, string> = {
      organizationName: '--name',
      adminEmail: '--admin-email',
      adminName: '--admin-name',
      adminPassword: '--admin-password',
    };
    for (const i of parsed.error.issues) console.error(`${flags[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`);
    console.error(`\n${USAGE}`);
    process.exit(64);
  }
  const config = loadConfig();
  if (usesDataDir(config)) secureDataDir(config.dataDir);
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(handle.db);
    const result = await createOrganizationFromCli(handle.db, {
      name: parsed.data.organizationName,
      adminName: parsed.data.adminName,
      adminEmail: parsed.data.adminEmail,
      adminPassword: parsed.data.adminPassword,
    });
    console.log(JSON.stringify(result));
  } finally {
    await handle.close();
  }
}

async function main(): Promise<void> {
  ownerOnlyFiles();
  const [command, ...rest] = process.argv.slice(2);
  try {
    if (command === 'create-org') return await createOrg(rest);
    console.error(command ? `Unknown command: ${command}\n\n${USAGE}` : USAGE);
    process.exit(64);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof DataDirUnsafeError) {
      console.error(err.message);
      process.exit(err instanceof DataDirInUseError ? 75 : 78);
    }
    if (err instanceof AppError) {
      console.error(err.message);
      process.exit(65);
    }
    if (err instanceof Error && 'code' in err && (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      console.error(`${err.message}\n\n${USAGE}`);
      process.exit(64);
    }
    throw err;
  }
}

void main();
