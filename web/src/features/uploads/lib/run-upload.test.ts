import { describe, expect, it } from 'vitest';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { checkFile } from './run-upload';

const file = (name: string, size: number, type = '') => new File([new Uint8Array(size)], name, { type });

describe('checkFile', () => {
  it('accepts allowed types, also without a browser type', () => {
    expect(checkFile(file('brief.pdf', 10, 'application/pdf'))).toBeNull();
    expect(checkFile(file('scan.TIFF', 10))).toBeNull();
  });
  it('refuses executables, scripts and unknown types', () => {
    expect(checkFile(file('setup.exe', 10))).toBe(UPLOAD_MSG.invalidFileType);
    expect(checkFile(file('page.html', 10, 'text/html'))).toBe(UPLOAD_MSG.invalidFileType);
    expect(checkFile(file('brief.pdf', 10, 'text/html'))).toBe(UPLOAD_MSG.invalidFileType);
  });
  it('applies the file-name rules and refuses empty or oversized files', () => {
    expect(checkFile(file('.hidden.pdf', 10))).toBe("File name cannot start with '.'.");
    expect(checkFile(file('a:b.pdf', 10))).toBe('File name contains invalid characters.');
    expect(checkFile(file('empty.pdf', 0))).toBe(UPLOAD_MSG.fileEmpty);
    expect(checkFile(file('big.pdf', 20), 10)).toBe(UPLOAD_MSG.fileTooLarge('10Bytes'));
  });
});
