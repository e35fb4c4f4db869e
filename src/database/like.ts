/**
 * A LIKE / ILIKE pattern matching values that contain `text` literally: its `\`, `%` and `_` are
 * escaped with PostgreSQL's default escape character.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
