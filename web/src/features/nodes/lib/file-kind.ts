import { FileArchive, FileAudio, FileImage, FileSpreadsheet, FileText, FileVideo, File, Mail, type LucideIcon } from 'lucide-react';
import { fileExtension } from '@strongroom/contracts';

const KINDS: Record<string, { icon: LucideIcon; label: string }> = {
  pdf: { icon: FileText, label: 'PDF' },
  doc: { icon: FileText, label: 'Word' },
  docx: { icon: FileText, label: 'Word' },
  rtf: { icon: FileText, label: 'Rich text' },
  txt: { icon: FileText, label: 'Text' },
  xls: { icon: FileSpreadsheet, label: 'Excel' },
  xlsx: { icon: FileSpreadsheet, label: 'Excel' },
  csv: { icon: FileSpreadsheet, label: 'CSV' },
  jpg: { icon: FileImage, label: 'Image' },
  jpeg: { icon: FileImage, label: 'Image' },
  png: { icon: FileImage, label: 'Image' },
  gif: { icon: FileImage, label: 'Image' },
  tif: { icon: FileImage, label: 'Image' },
  tiff: { icon: FileImage, label: 'Image' },
  eml: { icon: Mail, label: 'Email' },
  msg: { icon: Mail, label: 'Email' },
  zip: { icon: FileArchive, label: 'Archive' },
  mp3: { icon: FileAudio, label: 'Audio' },
  mp4: { icon: FileVideo, label: 'Video' },
  mov: { icon: FileVideo, label: 'Video' },
};

/** The icon and type label of a file, by extension. */
export function fileKind(name: string): { icon: LucideIcon; label: string } {
  const ext = fileExtension(name);
  return KINDS[ext] ?? { icon: File, label: ext ? ext.toUpperCase() : 'File' };
}
