import type { Migration } from 'kysely';
import { foundation } from './20261125_0001_foundation.js';
import { matters } from './20261126_0002_matters.js';
import { uploadIntegrity } from './20261127_0004_upload_integrity.js';
import { inputHardening } from './20261127_0005_input_hardening.js';
import { undo } from './20261127_0006_undo.js';
import { vault } from './20261128_0007_vault.js';
import { team } from './20261128_0008_team.js';
import { settings } from './20261128_0009_settings.js';
import { vaultVerification } from './20261128_0010_vault_verification.js';
import { audit } from './20261128_0011_audit.js';
import { archival } from './20261128_0012_archival.js';
import { securityTooling } from './20261128_0013_security_tooling.js';
import { signingKeys } from './20261129_0014_signing_keys.js';
import { notifications } from './20261130_0015_notifications.js';
import { search } from './20261130_0016_search.js';
import { guestGrantAccess } from './20261130_0017_guest_grant_access.js';
import { dashboard } from './20261130_0018_dashboard.js';
import { storageUsage } from './20261201_0019_storage_usage.js';
import { matterSearchText } from './20261201_0020_matter_search_text.js';
import { recycleBin } from './20261202_0021_recycle_bin.js';
import { nodeVersions } from './20261202_0022_node_versions.js';
import { vaultVersions } from './20261203_0023_vault_versions.js';
import { archivalRuns } from './20261204_0025_archival_runs.js';
import { matterListSearch } from './20261204_0026_matter_list_search.js';
import { auditSearchText } from './20261205_0029_audit_search_text.js';
import { matterFolders } from './20261206_0030_matter_folders.js';
import { documentText } from './20261207_0031_document_text.js';
import { approvals } from './20261208_0032_approvals.js';
import { apiTokens } from './20261209_0033_api_tokens.js';
import { disposition } from './20261210_0034_disposition.js';
import { sso } from './20261211_0035_sso.js';
import { passkeys } from './20261212_0036_passkeys.js';
import { sessionVia } from './20261213_0037_session_via.js';

/** Every migration, by name in time order. Bundled into the build, so no files are read at run time. */
export const migrations: Record<string, Migration> = {
  '20261125_0001_foundation': foundation,
  '20261126_0002_matters': matters,
  '20261127_0004_upload_integrity': uploadIntegrity,
  '20261127_0005_input_hardening': inputHardening,
  '20261127_0006_undo': undo,
  '20261128_0007_vault': vault,
  '20261128_0008_team': team,
  '20261128_0009_settings': settings,
  '20261128_0010_vault_verification': vaultVerification,
  '20261128_0011_audit': audit,
  '20261128_0012_archival': archival,
  '20261128_0013_security_tooling': securityTooling,
  '20261129_0014_signing_keys': signingKeys,
  '20261130_0015_notifications': notifications,
  '20261130_0016_search': search,
  '20261130_0017_guest_grant_access': guestGrantAccess,
  '20261130_0018_dashboard': dashboard,
  '20261201_0019_storage_usage': storageUsage,
  '20261201_0020_matter_search_text': matterSearchText,
  '20261202_0021_recycle_bin': recycleBin,
  '20261202_0022_node_versions': nodeVersions,
  '20261203_0023_vault_versions': vaultVersions,
  '20261204_0025_archival_runs': archivalRuns,
  '20261204_0026_matter_list_search': matterListSearch,
  '20261205_0029_audit_search_text': auditSearchText,
  '20261206_0030_matter_folders': matterFolders,
  '20261207_0031_document_text': documentText,
  '20261208_0032_approvals': approvals,
  '20261209_0033_api_tokens': apiTokens,
  '20261210_0034_disposition': disposition,
  '20261211_0035_sso': sso,
  '20261212_0036_passkeys': passkeys,
  '20261213_0037_session_via': sessionVia,
};
