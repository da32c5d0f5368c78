import technologies from './vocabulary/technologies.json' with { type: 'json' }
import { queryTerms } from './query-text.js'

/**
 * One unit of evidence a document can hold: a query word, or a category the query names with
 * the products that belong to it. A document holding a `full` phrase holds the group; one
 * holding only a `partial` phrase (the category word itself) holds half of it.
 */
export interface QueryGroup {
  full: string[]
  partial: string[]
}

interface Category {
  name: string
  words: string[]
  members: string[]
}

const categories = technologies.categories as Category[]
/** Names that mean the same thing ("k8s", "kubernetes"): a query word matches all of its set. */
const synonymSets = technologies.synonyms as string[][]

/** Words of a phrase as FTS5 tokenizes them, for comparing a phrase with the query's words. */
const wordsOf = (phrase: string): string[] => phrase.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  const [first] = phrase
  if (first === undefined) return true
  // Tried only where its first word stands: every query is held against the hundreds of phrases of the vocabulary.
  for (let start = words.indexOf(first); start !== -1 && start + phrase.length <= words.length; start = words.indexOf(first, start + 1)) {
    if (phrase.every((word, offset) => words[start + offset] === word)) return true
  }
  return false
}

/**
 * The evidence groups of a query: each content word (with its synonyms: "k8s" is also
 * "kubernetes"), and for each category it names ("what
 * database do we use", "which message queue") one group of that category's products, which
 * absorbs a single-word category name so the question counts a product named as its answer.
 */
export function queryGroups(text: string): QueryGroup[] {
  const terms = queryTerms(text)
  const words = wordsOf(text)
  const absorbed = new Set<string>()
  const expanded: QueryGroup[] = []
  for (const category of categories) {
    const named = category.words.filter((phrase) => containsPhrase(words, wordsOf(phrase)))
    if (named.length === 0) continue
    for (const phrase of named) {
      const phraseWords = wordsOf(phrase)
      if (phraseWords.length === 1 && phraseWords[0] !== undefined) absorbed.add(phraseWords[0])
    }
    expanded.push({ full: category.members.map((member) => wordsOf(member).join(' ')), partial: named.map((phrase) => wordsOf(phrase).join(' ')) })
  }
  const plain = terms
    .filter((term) => !absorbed.has(term))
    .map((term) => ({ full: synonymSets.find((names) => names.includes(term))?.map((name) => wordsOf(name).join(' ')) ?? [term], partial: [] }))
  return [...plain, ...expanded]
}
