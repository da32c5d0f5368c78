import { knowledgeStatuses, type KnowledgeStatus } from '../model.js'

/** Words teams write for a status, and the canonical status mk's logic uses for each. */
const commonStatusWords: Readonly<Record<string, KnowledgeStatus>> = {
  approved: 'accepted',
  adopted: 'accepted',
  agreed: 'accepted',
  decided: 'accepted',
  done: 'accepted',
  implemented: 'accepted',
  pending: 'proposed',
  proposal: 'proposed',
  open: 'proposed',
  'in review': 'proposed',
  'under review': 'proposed',
  rfc: 'proposed',
  wip: 'proposed',
  'work in progress': 'proposed',
  declined: 'rejected',
  withdrawn: 'rejected',
  obsolete: 'deprecated',
  retired: 'deprecated',
}

/** How a written status reads: a canonical status when the words map to one, otherwise the words themselves. */
export interface StatusReading {
  /** One of the canonical statuses, or the written words in lower case (`on hold`). */
  status: string
  /** The status phrase as written, without markdown. */
  raw: string
  /** False when the words map to no canonical status (a lint warning). */
  known: boolean
}

/** `.mkrc` knowledge.statusMap: an organisation's own words, compared without regard to case. */
export type StatusMap = Readonly<Record<string, KnowledgeStatus>>

const markdownLink = /!?\[([^\]]*)\]\([^)]*\)/g

/** The first line of a status text, as plain words: links become their text, emphasis, emoji and trailing punctuation go. */
export function statusPhrase(text: string): string {
  const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? ''
  return firstLine
    .replace(markdownLink, '$1')
    .replace(/[*_`~]/g, '')
    .replace(/^[\s\-+>|]*/, '')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/[\s.!;:,|]+$/, '')
    .trim()
}

const isCanonical = (word: string): word is KnowledgeStatus => (knowledgeStatuses as readonly string[]).includes(word)

function lookUp(words: string, statusMap: StatusMap): KnowledgeStatus | undefined {
  if (isCanonical(words)) return words
  const own = Object.entries(statusMap).find(([written]) => written.trim().toLowerCase().replace(/\s+/g, ' ') === words)
  return own?.[1] ?? commonStatusWords[words]
}

/** `accepted (2021-03-02)`, `implemented in <link>`, `deprecated in favor of x`, `approved - by the board`: the words before the qualifier. */
function qualifierFree(sentence: string): string {
  return sentence.split(/\s*[(,;:–—]\s*|\s+-\s+|\s+(?:on|since|as of|in|by|via|with|for|at|after)\s+|\s+(?=\d{4}-)/)[0]?.trim() ?? ''
}

/**
 * Read a written status. Whole phrases are matched first (`in review`), then the first sentence
 * without its qualifier; `Superseded by …` and `Replaced by …` (also as a later sentence) are superseded.
 */
export function readStatus(text: string, statusMap: StatusMap = {}): StatusReading {
  const raw = statusPhrase(text)
  const words = raw.toLowerCase().replace(/\s+/g, ' ')
  const sentences = words.split(/\.\s+|\s*->\s*/)
  if (sentences.some((sentence) => /^(superseded|replaced) by\b/.test(sentence)) || /^(superseded|replaced)\b/.test(words))
    return { status: 'superseded', raw, known: true }
  const whole = lookUp(words, statusMap)
  if (whole !== undefined) return { status: whole, raw, known: true }
  const head = qualifierFree(sentences[0] ?? '')
  const qualified = head === '' ? undefined : lookUp(head, statusMap)
  if (qualified !== undefined) return { status: qualified, raw, known: true }
  // `Reverted by [discussion #1198](…)` is the status "reverted"; the whole text stays in raw.
  return { status: head === '' ? words : head, raw, known: false }
}
