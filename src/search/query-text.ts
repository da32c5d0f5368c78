import { compoundWordParts } from './identifier-parts.js'

/** Common English words that carry no meaning for retrieval; dropping them from queries keeps BM25 on the content words. */
const stopWords = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does ' +
    'doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just me more most my myself no nor not of off on once only or other our ours ourselves out over own same she should so some such than that ' +
    'the their theirs them themselves then there these they this those through to too under until up very was we were what when where which ' +
    'while who whom why will with would you your yours yourself yourselves use used uses using'
  ).split(' '),
)

export function isStopWord(word: string): boolean {
  return stopWords.has(word)
}

/** Words of a text as FTS5 sees them (letters and digits, lower case). */
export function queryTerms(text: string): string[] {
  const parts = compoundWordParts(text)
  const words = `${text} ${parts}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const content = words.filter((word) => !stopWords.has(word))
  // A query of only stop words ("who is it") still searches for them rather than for nothing.
  return [...new Set(content.length > 0 ? content : words)]
}
