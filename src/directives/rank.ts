import { Minimatch } from 'minimatch'
import { knowledgeLayers } from '../config/layers.js'
import type { ContextVocabulary, DetectedContext } from './context.js'
import { topicsOf } from './context.js'
import { severityRank, type Directive } from './model.js'

/** A directive with what ranking needs precomputed once per knowledge version. */
export interface RankableDirective {
  directive: Directive
  /** Vocabulary topics of its own words and of the headings it sits under (the item's title aside). */
  ownTopics: ReadonlySet<string>
  /** Declared topics and tags of its item and the topics of the item's title: true of every directive in it. */
  itemTopics: ReadonlySet<string>
  authoritativeFor: ReadonlySet<string>
  /** applies_to entries that are architecture layers. */
  appliesToLayers: readonly string[]
  /** applies_to entries that are path globs. */
  appliesToGlobs: readonly Minimatch[]
}

export interface DirectiveTopics {
  ownTopics: string[]
  itemTopics: string[]
}

const lower = (values: readonly string[]): string[] => values.map((value) => value.toLowerCase())

/** What a directive is about; computed when the index is refreshed, because the vocabulary pass is the costly part of ranking. */
export function directiveTopics(directive: Directive, vocabulary: ContextVocabulary): DirectiveTopics {
  return {
    ownTopics: topicsOf(`${directive.breadcrumb.slice(1).join(' ')} ${directive.text}`, vocabulary),
    itemTopics: [...new Set([...lower(directive.topics), ...lower(directive.tags), ...topicsOf(directive.itemTitle, vocabulary)])],
  }
}

export function prepareDirective(directive: Directive, vocabulary: ContextVocabulary, topics = directiveTopics(directive, vocabulary)): RankableDirective {
  return {
    directive,
    ownTopics: new Set(topics.ownTopics),
    itemTopics: new Set(topics.itemTopics),
    authoritativeFor: new Set(lower(directive.authoritativeFor)),
    appliesToLayers: lower(directive.appliesTo).filter((entry) => vocabulary.layers.has(entry)),
    appliesToGlobs: directive.appliesTo.filter((entry) => entry.includes('/') || entry.includes('*')).map((entry) => new Minimatch(entry, { dot: true })),
  }
}

export interface RankOptions {
  /** Leave out directives that apply only to other layers (default); otherwise they rank lower. */
  strictLayer: boolean
  /** A hybrid score at or above this counts as relevant on its own, without a shared topic. */
  similarityFloor: number
  /** How many of the rules closest to the task in meaning count as relevant without a shared word (0: none). */
  meaningPlaces?: number
  /** Meaning evidence (vector evidence, ADR 0010's scale) a rule needs to count among the closest. */
  meaningFloor?: number
}

export interface RankedDirective {
  directive: Directive
  /** Why it was chosen, in a few words ("applies to persistence; covers security"). */
  rationale: string
  /** Ranking keys in priority order, for diagnostics. */
  keys: number[]
  /** Taken part only for being close to the task in meaning: no word, topic, file or activation of its own matched. */
  byMeaningOnly?: boolean
}

/** directive > rule > section > pattern: a sentence written with a keyword says more than a list item in a rules file or a pattern. */
function entityPreference(directive: Directive): number {
  if (directive.itemType === 'pattern') return 0
  return directive.keyword === undefined ? 2 : 3
}

function specificity(directive: Directive): number {
  return (knowledgeLayers as readonly string[]).indexOf(directive.layer)
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let position = 0; position < a.length; position++) {
    const difference = (b[position] ?? 0) - (a[position] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}

/** Lower case, letters and digits only, first 100 characters: the same rule written twice in two items. */
function duplicateKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 100)
}

/** Width of a band of relevance: rules closer than this in relevance are told apart by severity and authority. */
const bandWidth = 0.1

/**
 * How relevant a rule is to the task, in bands: its similarity to the task (words and meaning), a
 * tenth for each topic of the task its own words name (at most two), half that for one it has from
 * its item, a tenth when a file the task names matches its file globs, a tenth for being among the
 * rules closest to the task in meaning, and half a tenth for authority on a topic of the task.
 * So authority tips rules that are about as relevant, and never puts a rule on the task's topic in
 * general before one about the task itself; severity breaks the ties left.
 */
function relevanceBand(score: number, ownTopics: number, itemTopics: number, fileMatch: boolean, authority: boolean, close: boolean): number {
  const relevance = score + 0.1 * Math.min(2, ownTopics) + 0.05 * Math.min(2, itemTopics) + (fileMatch ? 0.1 : 0) + (authority ? 0.05 : 0) + (close ? 0.1 : 0)
  return Math.floor(relevance / bandWidth + 1e-9)
}

/**
 * The rules nearest the task by meaning (the embedding model's evidence), at most `meaningPlaces`
 * of them and none under `meaningFloor`: they take part without sharing a word with the task. A
 * manual rule never does, nor one scoped to folders or files: sounding alike does not put a task
 * in `web/**`.
 */
function closestInMeaning(candidates: readonly RankableDirective[], meaning: ReadonlyMap<string, number>, options: RankOptions): Set<string> {
  const places = options.meaningPlaces ?? 0
  if (places === 0 || meaning.size === 0) return new Set()
  const floor = options.meaningFloor ?? 0
  const near = candidates
    .filter((candidate) => candidate.directive.activation !== 'manual' && candidate.appliesToGlobs.length === 0)
    .map((candidate) => ({ id: candidate.directive.id, evidence: meaning.get(candidate.directive.id) ?? 0 }))
    .filter((entry) => entry.evidence >= floor && entry.evidence > 0)
    .sort((a, b) => b.evidence - a.evidence || a.id.localeCompare(b.id))
  return new Set(near.slice(0, places).map((entry) => entry.id))
}

/**
 * Rank in priority order: layer, relevance (similarity, topic overlap, a path in scope, closeness in meaning; in bands),
 * a rule before a procedure step, severity, authority on a detected topic, similarity, entity.
 * Only directives with a reason to be there take part, and none scoped to other paths.
 */
export function rankDirectives(
  candidates: readonly RankableDirective[],
  context: DetectedContext,
  similarity: ReadonlyMap<string, number>,
  options: RankOptions,
  meaning: ReadonlyMap<string, number> = new Map(),
): { ranked: RankedDirective[]; considered: number; droppedByLayer: number; droppedByScope: number; duplicates: number } {
  const topics = new Set(context.topics)
  const layers = new Set(context.layers)
  const scored: RankedDirective[] = []
  const closest = closestInMeaning(candidates, meaning, options)
  let considered = 0
  let droppedByLayer = 0
  let droppedByScope = 0
  for (const candidate of candidates) {
    const { activation } = candidate.directive
    // A manual rule is served only to someone who names it, never to a task.
    if (activation === 'manual') continue
    // The item's authority counts for the directives that are about the topic, or that name no topic at all.
    const about = candidate.ownTopics.size > 0 ? candidate.ownTopics : candidate.itemTopics
    const authority = [...candidate.authoritativeFor].filter((topic) => topics.has(topic) && about.has(topic))
    const ownOverlap = [...candidate.ownTopics].filter((topic) => topics.has(topic))
    const itemOverlap = [...candidate.itemTopics].filter((topic) => topics.has(topic) && !candidate.ownTopics.has(topic))
    const overlap = [...ownOverlap, ...itemOverlap]
    const matching = candidate.appliesToGlobs.filter((glob) => context.paths.some((path) => glob.match(path)))
    const pathMatch = matching.length > 0
    // Being inside a folder's rules (`web/**`) is the condition for them, not evidence they matter; a file glob (`**/*.tsx`) is.
    const fileMatch = matching.some((glob) => !/^[^*?[{]*\/\*\*$/.test(glob.pattern))
    // Rules scoped to folders or files (a nested AGENTS.md, Cursor globs) stay out of a task that names only other paths.
    if (candidate.appliesToGlobs.length > 0 && context.paths.length > 0 && !pathMatch) {
      droppedByScope++
      continue
    }
    const always = activation === 'always'
    const score = similarity.get(candidate.directive.id) ?? 0
    const close = closest.has(candidate.directive.id)
    if (authority.length === 0 && overlap.length === 0 && !pathMatch && !always && !close && score < options.similarityFloor) continue
    considered++
    const layerMatches = candidate.appliesToLayers.filter((layer) => layers.has(layer))
    const layerMismatch = candidate.appliesToLayers.length > 0 && layers.size > 0 && layerMatches.length === 0
    if (layerMismatch && options.strictLayer) {
      droppedByLayer++
      continue
    }
    // Each topic is named once: the authority or the layer already says it.
    const covers = overlap.filter((topic) => !authority.includes(topic) && !layerMatches.includes(topic))
    const reasons = [
      authority.length > 0 ? `authority on ${authority.join(', ')}` : undefined,
      pathMatch ? 'matches the paths named' : undefined,
      layerMatches.length > 0 ? `applies to ${layerMatches.join(', ')}` : undefined,
      covers.length > 0 ? `covers ${covers.slice(0, 2).join(', ')}` : undefined,
      authority.length === 0 && overlap.length === 0 && !pathMatch && score >= options.similarityFloor ? 'similar wording' : undefined,
      close && authority.length === 0 && overlap.length === 0 && !pathMatch && score < options.similarityFloor ? 'close in meaning' : undefined,
      always && authority.length === 0 && overlap.length === 0 && !pathMatch && !close && score < options.similarityFloor ? 'always applies' : undefined,
    ].filter((reason): reason is string => reason !== undefined)
    const byMeaningOnly = authority.length === 0 && overlap.length === 0 && !pathMatch && !always && score < options.similarityFloor
    scored.push({
      directive: candidate.directive,
      rationale: reasons.join('; '),
      ...(byMeaningOnly ? { byMeaningOnly } : {}),
      keys: [
        // Strict mode has already dropped the rules for other layers; the rest (for this layer or for every layer) rank alike.
        layerMismatch ? -1 : 0,
        relevanceBand(score, ownOverlap.length, itemOverlap.length, fileMatch, authority.length > 0, close),
        // Within a band: a rule that stands alone before a step of a procedure, then severity, then authority.
        candidate.directive.step === true ? 0 : 1,
        severityRank(candidate.directive.severity),
        authority.length > 0 ? 1 : 0,
        score,
        entityPreference(candidate.directive),
      ],
    })
  }
  // On equal keys the more specific layer goes first, so of two copies of a rule the project's is kept.
  scored.sort((a, b) => compareKeys(a.keys, b.keys) || specificity(a.directive) - specificity(b.directive) || a.directive.id.localeCompare(b.directive.id))
  const seen = new Set<string>()
  const ranked = scored.filter((entry) => {
    const key = duplicateKey(entry.directive.text)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  return { ranked, considered, droppedByLayer, droppedByScope, duplicates: scored.length - ranked.length }
}
