import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, clientReportAction } from './audit-logs.js';
import { auditActionsWithoutSentence, describeAuditEntry } from './audit-sentences.js';

const ada = { name: 'Ada Lovelace', email: 'ada@firm.test' };

describe('describeAuditEntry', () => {
  it('has a sentence of its own for every action the log lists', () => {
    expect(auditActionsWithoutSentence()).toEqual([]);
    for (const action of AUDIT_ACTIONS) {
      const text = describeAuditEntry({ action, actor: ada, details: {} });
      expect(text, action).not.toMatch(/recorded “/);
      expect(text, action).not.toMatch(/undefined|null|\[object/);
    }
  });

  it('names the person, the file and the matter of an upload', () => {
    const text = describeAuditEntry({
      action: 'UPLOAD_FILE',
      actor: ada,
      targetTable: 'nodes',
      targetId: '12',
      details: { matterId: 3, matterName: 'Smith v Jones', fileName: 'Defence.pdf' },
    });
    expect(text).toBe('Ada Lovelace uploaded “Defence.pdf” to “Smith v Jones”');
  });

  it('takes the names the list looked up when the entry recorded none', () => {
    const text = describeAuditEntry({
      action: 'UNDO_RENAME_NODE',
      actor: ada,
      targetTable: 'nodes',
      details: { nodeType: 'folder' },
      names: { target: 'Pleadings', matter: 'Smith v Jones' },
    });
    expect(text).toBe('Ada Lovelace undid the renaming of the folder “Pleadings” in “Smith v Jones”');
  });

  it('says a deactivation is a deactivation, naming the person', () => {
    const text = describeAuditEntry({
      action: 'USER_REMOVE',
      actor: ada,
      targetTable: 'users',
      details: { email: 'bob@firm.test' },
      names: { target: 'Bob Baker' },
    });
    expect(text).toBe('Ada Lovelace deactivated Bob Baker');
    expect(text).not.toMatch(/remov/i);
  });

  it('reads Strongroom for its own entries, the address when there is no name, and archived entries without details', () => {
    expect(describeAuditEntry({ action: 'VAULT_CERTIFICATE_ISSUED', actor: null, details: { matterName: 'Estate of X' } })).toBe(
      'Strongroom signed the vault certificate of “Estate of X”',
    );
    expect(describeAuditEntry({ action: 'USER_LOGIN', actor: { name: null, email: 'e@x.test' } })).toBe('e@x.test signed in');
    expect(describeAuditEntry({ action: 'UPLOAD_FILE', actor: ada, details: null })).toBe('Ada Lovelace uploaded a file to a matter');
  });

  it('marks what a browser reported, and still names an action it does not know', () => {
    expect(describeAuditEntry({ action: clientReportAction('LOGIN_FAILED'), actor: ada })).toBe(
      'A browser of Ada Lovelace reported “login failed”',
    );
    expect(describeAuditEntry({ action: 'SOME_NEW_THING', actor: ada })).toBe('Ada Lovelace recorded “some new thing”');
  });
});
