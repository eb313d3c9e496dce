import { describe, expect, it } from 'vitest';
import {
  cleanEtag,
  isMultipart,
  parseSavedUpload,
  partCount,
  partRanges,
  remainingParts,
  uploadStorageKey,
  uploadedBytes,
} from './upload-plan';

const MB = 1024 * 1024;

describe('upload planner', () => {
  it('goes multipart at 100 MB', () => {
    expect(isMultipart(100 * MB - 1)).toBe(false);
    expect(isMultipart(100 * MB)).toBe(true);
  });
  it('cuts 10 MB parts with a shorter last one', () => {
    expect(partCount(120 * MB)).toBe(12);
    expect(partCount(120 * MB + 1)).toBe(13);
    const ranges = partRanges(25 * MB);
    expect(ranges).toEqual([
      { partNumber: 1, start: 0, end: 10 * MB },
      { partNumber: 2, start: 10 * MB, end: 20 * MB },
      { partNumber: 3, start: 20 * MB, end: 25 * MB },
    ]);
  });
  it('resumes with only the missing parts', () => {
    const rest = remainingParts(120 * MB, [1, 2, 5]);
    expect(rest.map((p) => p.partNumber)).toEqual([3, 4, 6, 7, 8, 9, 10, 11, 12]);
    expect(uploadedBytes(25 * MB, [1, 3])).toBe(15 * MB);
  });
  it('keys the saved state by organization and file identity', () => {
    const file = { name: 'brief.pdf', size: 123, lastModified: 456 };
    expect(uploadStorageKey('org-1', file)).toBe('strongroom.upload:org-1:brief.pdf:123:456');
    expect(uploadStorageKey('org-2', file)).not.toBe(uploadStorageKey('org-1', file));
  });
  it('discards saved state of another organization or broken JSON', () => {
    const saved = JSON.stringify({ uploadId: 'u', s3Key: 'k', organizationId: 'org-1', uploadedChunks: [] });
    expect(parseSavedUpload(saved, 'org-1')?.uploadId).toBe('u');
    expect(parseSavedUpload(saved, 'org-2')).toBeNull();
    expect(parseSavedUpload('{', 'org-1')).toBeNull();
    expect(parseSavedUpload(null, 'org-1')).toBeNull();
  });
  it('strips quotes from ETags', () => {
    expect(cleanEtag('"abc"')).toBe('abc');
    expect(cleanEtag('')).toBeNull();
    expect(cleanEtag(null)).toBeNull();
  });
});
