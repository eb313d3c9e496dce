/**
 * Where a file version's text stands for document search: 'pending' until the background job has read it,
 * 'indexed' when its words are searchable, 'no_text' when the format holds none we read (or none was found),
 * 'failed' with a reason.
 */
export const FILE_TEXT_STATES = ['pending', 'indexed', 'no_text', 'failed'] as const;
export type FileTextState = (typeof FILE_TEXT_STATES)[number];

/** A file version's text state as the workspace shows it. */
export const FILE_TEXT_STATE_LABELS: Record<FileTextState, string> = {
  pending: 'Text pending',
  indexed: 'Text indexed',
  no_text: 'No text',
  failed: 'Text failed',
};
