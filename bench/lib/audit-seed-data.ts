// The actions, tables, actor names and matter subjects the audit-list bench's entries are made of.
export const ACTIONS = [
  'UPLOAD_FILE',
  'DOWNLOAD_FILE',
  'CREATE_FOLDER',
  'RENAME_NODE',
  'MOVE_NODE',
  'DELETE_NODE',
  'CREATE_MATTER',
  'UPDATE_MATTER',
  'USER_LOGIN',
  'USER_LOGOUT',
  'LOGIN_PASSWORD_VERIFIED',
  'MFA_EMAIL_CODE_SENT',
  'APPLY_LEGAL_HOLD',
  'VAULT_MATTER',
  'VAULT_TRANSFER_COMPLETED',
  'INVITE_USER',
  'UPDATE_ORG_INFO',
  'USER_UPDATE_PERMISSIONS',
  'VAULT_VERIFICATION_FAILED',
  'RETENTION_CLEANUP',
];
export const TABLES = ['nodes', 'matters', 'users', 'sessions', 'invitations'];
export const NAMES = [
  'Alice Anderson',
  'Ben Baker',
  'Clara Carter',
  'David Dawson',
  'Emma Ellis',
  'Farid Fletcher',
  'Grace Graham',
  'Hugo Harper',
];
export const SUBJECTS = [
  'Share purchase agreement',
  'Commercial lease',
  'Employment dispute',
  'Supply agreement',
  'Trademark opposition',
  'Loan agreement',
];
