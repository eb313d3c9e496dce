import {
  File,
  FileArchive,
  FileAudio,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileType,
  FileVideo,
  Mail,
  Presentation,
  type LucideIcon,
} from 'lucide-react';
import { fileExtension } from '@strongroom/contracts';

/** How a kind of file is drawn: its icon, its name in the Type column, and the icon's colour in both themes. */
type Kind = { icon: LucideIcon; label: string; tone: string };

const PDF: Kind = { icon: FileText, label: 'PDF', tone: 'text-red-600 dark:text-red-400' };
const WORD: Kind = { icon: FileType, label: 'Word', tone: 'text-blue-600 dark:text-blue-400' };
const RICH_TEXT: Kind = { icon: FileType, label: 'Rich text', tone: 'text-blue-600 dark:text-blue-400' };
const TEXT: Kind = { icon: FileText, label: 'Text', tone: 'text-muted-foreground' };
const EXCEL: Kind = { icon: FileSpreadsheet, label: 'Excel', tone: 'text-emerald-600 dark:text-emerald-400' };
const CSV: Kind = { icon: FileSpreadsheet, label: 'CSV', tone: 'text-emerald-600 dark:text-emerald-400' };
const SLIDES: Kind = { icon: Presentation, label: 'PowerPoint', tone: 'text-orange-600 dark:text-orange-400' };
const IMAGE: Kind = { icon: FileImage, label: 'Image', tone: 'text-violet-600 dark:text-violet-400' };
const EMAIL: Kind = { icon: Mail, label: 'Email', tone: 'text-amber-600 dark:text-amber-400' };
const ARCHIVE: Kind = { icon: FileArchive, label: 'Archive', tone: 'text-stone-600 dark:text-stone-400' };
const AUDIO: Kind = { icon: FileAudio, label: 'Audio', tone: 'text-pink-600 dark:text-pink-400' };
const VIDEO: Kind = { icon: FileVideo, label: 'Video', tone: 'text-indigo-600 dark:text-indigo-400' };

const KINDS: Record<string, Kind> = {
  pdf: PDF,
  doc: WORD,
  docx: WORD,
  rtf: RICH_TEXT,
  txt: TEXT,
  md: TEXT,
  xls: EXCEL,
  xlsx: EXCEL,
  csv: CSV,
  ppt: SLIDES,
  pptx: SLIDES,
  jpg: IMAGE,
  jpeg: IMAGE,
  png: IMAGE,
  gif: IMAGE,
  tif: IMAGE,
  tiff: IMAGE,
  webp: IMAGE,
  heic: IMAGE,
  eml: EMAIL,
  msg: EMAIL,
  zip: ARCHIVE,
  '7z': ARCHIVE,
  rar: ARCHIVE,
  mp3: AUDIO,
  wav: AUDIO,
  m4a: AUDIO,
  mp4: VIDEO,
  mov: VIDEO,
  avi: VIDEO,
  webm: VIDEO,
};

/** The icon, type label and icon colour of a file, by extension: PDF, Word, Excel, email, image... told apart. */
export function fileKind(name: string): Kind {
  const ext = fileExtension(name);
  return KINDS[ext] ?? { icon: File, label: ext ? ext.toUpperCase() : 'File', tone: 'text-muted-foreground' };
}
