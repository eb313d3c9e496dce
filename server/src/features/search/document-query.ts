/**
 * What a person types into document search, read into parts: words (each must occur, in any form the language
 * stems to), "a phrase" (the words in that order), -word or -"a phrase" (must not occur), and word* (a word that
 * starts with it). Anything else a search engine might take as syntax is read as plain words, so no text can
 * make the database's query parser fail or do something else.
 */
export type QueryPart =
  | { kind: 'words'; text: string; negated: boolean }
  | { kind: 'phrase'; text: string; negated: boolean }
  | { kind: 'prefix'; words: string[]; prefix: string };

/** Letters and digits only: what a prefix may be made of before it is handed to the query parser. */
const WORD = /[\p{L}\p{N}]+/gu;
const TOKEN = /(-?)"([^"]*)"?|(\S+)/g;

export function parseDocumentQuery(q: string): QueryPart[] {
  const parts: QueryPart[] = [];
  for (const m of q.matchAll(TOKEN)) {
    if (m[2] !== undefined) {
      if (m[2].trim() !== '') parts.push({ kind: 'phrase', text: m[2], negated: m[1] === '-' });
      continue;
    }
    let token = m[3]!;
    const negated = token.length > 1 && token.startsWith('-');
    if (negated) token = token.slice(1);
    if (!negated && token.endsWith('*')) {
      const words = token.match(WORD) ?? [];
      const prefix = words.pop();
      if (prefix !== undefined) parts.push({ kind: 'prefix', words, prefix });
      continue;
    }
    if ((token.match(WORD) ?? []).length > 0) parts.push({ kind: 'words', text: token, negated });
  }
  return parts;
}

/** How many words a query holds (each is a lookup in the index). */
export function termCount(parts: QueryPart[]): number {
  return parts.reduce((n, p) => n + (p.kind === 'prefix' ? p.words.length + 1 : (p.text.match(WORD) ?? []).length), 0);
}
