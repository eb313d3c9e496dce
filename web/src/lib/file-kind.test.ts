import { describe, expect, it } from 'vitest';
import { fileKind } from './file-kind';

describe('fileKind', () => {
  it('tells PDF, Word, Excel, email, image, audio, video, archive and text apart, by icon and by colour', () => {
    const names = ['a.pdf', 'a.docx', 'a.xlsx', 'a.eml', 'a.png', 'a.mp3', 'a.mp4', 'a.zip', 'a.txt'];
    const kinds = names.map(fileKind);
    expect(kinds.map((k) => k.label)).toEqual(['PDF', 'Word', 'Excel', 'Email', 'Image', 'Audio', 'Video', 'Archive', 'Text']);
    // No two of these share both an icon and a colour.
    const looks = new Set(kinds.map((k) => `${k.icon.displayName ?? String(k.icon)}|${k.tone}`));
    expect(looks.size).toBe(names.length);
  });

  it('reads the extension whatever its case, and names an unknown one by itself', () => {
    expect(fileKind('DEFENCE.PDF').label).toBe('PDF');
    expect(fileKind('model.dwg').label).toBe('DWG');
    expect(fileKind('README').label).toBe('File');
  });
});
