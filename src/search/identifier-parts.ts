/** camelCase and PascalCase words with at least two parts: `userId`, `HttpServer`, `parseJSONBody`. */
const compoundWord = /\b[A-Za-z][a-z0-9]*(?:[A-Z]+[a-z0-9]*)+\b|\b[A-Z]{2,}[a-z][A-Za-z0-9]*\b/g
const part = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g

/** The parts of one camelCase or PascalCase word, lower case: `parseJSONBody` is parse, json, body. */
export function identifierParts(word: string): string[] {
  return (word.match(part) ?? []).map((piece) => piece.toLowerCase())
}

/**
 * The parts of every camelCase word in a text, space separated, for the full-text index:
 * FTS5's tokenizer splits `user_id` and `user-id` itself but keeps `userId` whole, so a search
 * for "user" would miss it.
 */
export function compoundWordParts(text: string): string {
  const words = new Set((text.match(compoundWord) ?? []).filter((word) => /[a-z]/.test(word)))
  return [...words].flatMap((word) => identifierParts(word)).join(' ')
}
