import { stem, words } from '../words.js'

/**
 * The vocabulary terms of a text, longest first at each word: "pull request" is one term, so its
 * "request" does not also count as an API word.
 */
export function matchTerms(text: string, known: ReadonlyMap<string, unknown>): string[] {
  const stems = words(text).map(stem)
  const found: string[] = []
  let start = 0
  while (start < stems.length) {
    const length = [3, 2, 1].find((candidate) => start + candidate <= stems.length && known.has(stems.slice(start, start + candidate).join(' ')))
    if (length === undefined) {
      start++
      continue
    }
    found.push(stems.slice(start, start + length).join(' '))
    start += length
  }
  return found
}

/** A vocabulary phrase in the form `termsOf` produces. */
export function termKey(phrase: string): string {
  return words(phrase).map(stem).join(' ')
}

/** Words that look like paths or file names (`src/api/users.ts`), for path globs in applies_to. */
export function pathsIn(text: string): string[] {
  return (text.match(/[\w.@-]*(?:\/[\w.@*-]+)+\/?|[\w-]{2,}\.[a-z]{1,5}\b/g) ?? []).filter((token) => token.includes('/') || /\.[a-z]{1,5}$/.test(token))
}
