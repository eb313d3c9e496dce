// What other features use of undo: recording the state a change can be undone to, and the error an undo that
// no longer applies answers (matters, nodes, team).
export { recordUndo, undoUnavailable, type UndoEntry, type UndoOffer } from './undo.service.js';
