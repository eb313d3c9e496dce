/** What a failed folder or file call says when the server's answer carries no text of its own. */
export const NODE_FALLBACK = {
  create: 'Failed to create folder.',
  rename: 'Failed to rename item.',
  move: 'Failed to move item.',
  delete: 'Failed to delete item.',
} as const;
