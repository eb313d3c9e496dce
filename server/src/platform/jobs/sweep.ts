/**
 * Deletes in batches until a batch comes back short: each batch is its own statement, so that a sweep of a large
 * backlog never holds one long transaction over the table. Answers how many rows went in all.
 */
export async function sweepInBatches(deleteBatch: (limit: number) => Promise<number>, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await deleteBatch(batch);
    total += gone;
    if (gone < batch) return total;
  }
}
