import { z } from 'zod';
import { matterSchema } from './matters.js';
import { nodeSchema } from './nodes.js';

/**
 * Undo: a change that can be taken back answers an undoId; POST /_api/undo { undoId } restores the state from
 * before the change, within 5 minutes, once, by the person who made it, and only while the changed object is
 * still at the version the change left it at (a later change is never overwritten).
 */
export const UNDO_MSG = {
  success: 'Undo operation successful.',
  failedTitle: 'Undo failed',
  /** Expired, already used, or the object changed since. */
  unavailable: 'The action has expired or is no longer available.',
  invalidUndoId: 'Invalid undo ID format.',
  undoIdRequired: 'Undo ID is required.',
  /** The toast's action label. */
  action: 'Undo',
} as const;

/** How long an undo entry lasts: 5 minutes. */
export const UNDO_WINDOW_MS = 5 * 60_000;

/**
 * The kinds of change that can be undone. Each stores the fields it changed as they were before (jsonb) and the
 * version the change produced; team administration adds its own kinds to the same registry.
 */
export const UNDO_KINDS = ['node.rename', 'node.move', 'node.delete', 'matter.update', 'user.update'] as const;
export type UndoKind = (typeof UNDO_KINDS)[number];

/** What a change answers beside its object when it can be undone. */
export const undoOffer = {
  /** Present when the change can be undone: the id to send to POST /_api/undo. */
  undoId: z.string().optional(),
  /** When the offer ends (ISO date-time). */
  undoExpiresAt: z.string().optional(),
};
export type UndoOffer = z.infer<z.ZodObject<typeof undoOffer>>;

/** POST /_api/nodes/rename and /_api/nodes/move answer the node and, when something changed, an undo offer. */
export const nodeChangeResponse = z.object({ node: nodeSchema, ...undoOffer });
export type NodeChangeResponse = z.infer<typeof nodeChangeResponse>;

/** POST /_api/matters/update answers the matter and, when something changed, an undo offer. */
export const matterChangeResponse = z.object({ matter: matterSchema, ...undoOffer });
export type MatterChangeResponse = z.infer<typeof matterChangeResponse>;

export const undoRequest = z.strictObject({
  undoId: z.uuid({ error: (iss) => (iss.input === undefined ? UNDO_MSG.undoIdRequired : UNDO_MSG.invalidUndoId) }),
});
export type UndoRequest = z.infer<typeof undoRequest>;

export const undoResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  kind: z.enum(UNDO_KINDS),
  /** The id of the object restored (node, matter). */
  targetId: z.string(),
  /** The matter the object belongs to, so the client knows which views to refresh; null for other kinds. */
  matterId: z.string().nullable(),
});
export type UndoResponse = z.infer<typeof undoResponse>;
