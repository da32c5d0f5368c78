import type { DocumentIndex } from '../search/document-index.js'
import type { SearchMode } from '../search/types.js'
import type { TokenCounter } from '../token-count.js'
import { composeBlock, type Citation, type RememberedFact } from './block.js'
import {
  buildVocabulary,
  contentTerms,
  detectContext,
  headingTopics,
  pathLanguages,
  pathWords,
  type ContextVocabulary,
  type VocabularyExtension,
} from './context.js'
import { severityRank, type Directive } from './model.js'
import type { ModeSlug } from './modes.js'
import { prepareDirective, rankDirectives, type RankableDirective, type RankedDirective } from './rank.js'
import { storedDirective } from './stored.js'
import { blockOrder } from './block-order.js'

/** Longer task texts are cut to this many characters before detection and search. */
export const maxTaskCharacters = 2000

/** A hybrid score at or above this makes a directive relevant without a shared topic (a weak match without a shared word scores under 0.2). */
const similarityFloor = 0.35

/** How many of the rules nearest the task in meaning take part without a shared word, and the evidence they need. */
const meaningPlaces = 3
const meaningFloor = 0.2

const rememberedLimit = 3

/**
 * The share of the block's places kept for the rules of the section on the task's kind of work,
 * once it holds one (issue 29, ADR 0034): half, 4 of the default 8; 3 moved no task of the
 * fixtures, 5 cost two of the seen set.
 */
const taskKindShare = 0.5

export interface DirectiveQuery {
  taskDescription: string
  modeSlug: ModeSlug | undefined
  strictLayer: boolean
  maxItems: number
  tokenBudget: number
  includeBreadcrumbs: boolean
  topicsBias: readonly string[]
  includeMemories: boolean
}

export interface RulesSettings {
  coreItems: readonly string[]
  topics: VocabularyExtension
  layers: VocabularyExtension
}

/** Every directive that may be served, prepared for ranking; built once per knowledge version. */
export interface DirectiveSet {
  directives: readonly RankableDirective[]
  vocabulary: ContextVocabulary
}

/** The vocabulary a task is read with: the shipped words, `.mkrc`'s, and every topic and tag the knowledge uses. */
export function rulesVocabulary(settings: Pick<RulesSettings, 'topics' | 'layers'>, directives: readonly Directive[]): ContextVocabulary {
  const knowledgeTopics = new Set<string>()
  const headings = new Set<string>()
  for (const directive of directives) {
    for (const topic of [...directive.topics, ...directive.authoritativeFor, ...directive.tags]) knowledgeTopics.add(topic)
    for (const heading of directive.breadcrumb) headings.add(heading)
  }
  return buildVocabulary({ topics: settings.topics, layers: settings.layers, knowledgeTopics: [...knowledgeTopics], learnedTopics: headingTopics(headings) })
}

export async function loadDirectiveSet(index: DocumentIndex, settings: RulesSettings, statuses: readonly string[]): Promise<DirectiveSet> {
  const stored = (await index.list({ kind: 'directive', statuses, includeExpired: true, order: 'any' })).flatMap((doc) => storedDirective(doc) ?? [])
  const vocabulary = rulesVocabulary(
    settings,
    stored.map((entry) => entry.directive),
  )
  return { directives: stored.map((entry) => prepareDirective(entry.directive, vocabulary, entry.topics)), vocabulary }
}

export interface DirectiveDiagnostics {
  detectedLayer: string | undefined
  topics: string[]
  keywords: string[]
  scoringNotes: string[]
  retrievalStats: { searched: number; considered: number; selected: number }
  cut: { directives: string[]; memories: string[] }
}

export interface DirectiveAnswer {
  contextBlock: string
  /** Why the block holds no rule matched to the task: what it holds instead, or why it is empty. */
  fallback?: string
  citations: Citation[]
  tokens: number
  diagnostics: DirectiveDiagnostics
}

export interface DirectiveSources {
  set: DirectiveSet
  index: DocumentIndex
  searchMode: SearchMode
  textWeight: number
  statuses: readonly string[]
  countTokens: TokenCounter
  /** The memories most relevant to a text, best first (only called when memories are wanted). */
  recall: (text: string, limit: number) => Promise<(RememberedFact & { score: number })[]>
}

/**
 * The rules served when none matches a task: the items `rules.coreItems` names, or by default the
 * rules meant for every task (an `always` activation) and the MUST rules that no scope, layer or
 * activation limits. A block is never empty while the knowledge states a rule for everyone. The
 * always-applied come first, then the closest to the task in meaning (in bands a tenth wide, so
 * severity tells apart rules about as close), then the stronger.
 */
export function coreRules(set: DirectiveSet, coreItems: readonly string[], meaning: ReadonlyMap<string, number> = new Map()): RankedDirective[] {
  const core = new Set(coreItems)
  const isCore = (directive: Directive): boolean =>
    core.size > 0
      ? core.has(directive.itemId)
      : directive.activation === 'always' || (directive.activation === undefined && directive.severity === 'MUST' && directive.appliesTo.length === 0)
  const closeness = (directive: Directive): number => meaning.get(directive.id) ?? 0
  return set.directives
    .filter((candidate) => isCore(candidate.directive))
    .sort(
      (a, b) =>
        Number(b.directive.activation === 'always') - Number(a.directive.activation === 'always') ||
        Math.floor(closeness(b.directive) * 10) - Math.floor(closeness(a.directive) * 10) ||
        severityRank(b.directive.severity) - severityRank(a.directive.severity) ||
        closeness(b.directive) - closeness(a.directive) ||
        a.directive.id.localeCompare(b.directive.id),
    )
    .map((candidate) => ({ directive: candidate.directive, rationale: 'core rule', keys: [] }))
}

/** The directives that apply to a task, ranked, cut to the budget, with what was detected and why. */
export async function queryDirectives(query: DirectiveQuery, settings: RulesSettings, sources: DirectiveSources): Promise<DirectiveAnswer> {
  const notes: string[] = []
  let task = query.taskDescription.trim()
  if (task.length > maxTaskCharacters) {
    notes.push(`taskDescription truncated from ${task.length} to ${maxTaskCharacters} characters`)
    task = task.slice(0, maxTaskCharacters)
  }
  const { set } = sources
  const context = detectContext(task, set.vocabulary, query.modeSlug)
  for (const topic of query.topicsBias) if (!context.topics.includes(topic.toLowerCase())) context.topics.push(topic.toLowerCase())

  const similarity = new Map<string, number>()
  const meaning = new Map<string, number>()
  // The paths a task names decide scope by their globs; as words they would match every rule that names a path like them.
  const prose = context.paths.reduce((rest, path) => rest.split(path).join(' '), task).trim()
  if (set.directives.length > 0) {
    const hits = await sources.index.search({
      text: prose === '' ? task : prose,
      mode: sources.searchMode,
      limit: 200,
      textWeight: sources.textWeight,
      filters: { kind: 'directive', statuses: sources.statuses, includeExpired: true },
    })
    for (const hit of hits) {
      similarity.set(hit.id, hit.score)
      if (hit.scores.vector !== undefined) meaning.set(hit.id, hit.scores.vector)
    }
    if (sources.searchMode !== 'hybrid') notes.push('similarity by full text only: the embedding model is not available')
  }
  const ranking = rankDirectives(
    set.directives,
    context,
    similarity,
    {
      strictLayer: query.strictLayer,
      similarityFloor,
      meaningPlaces,
      meaningFloor,
      // A requested rule's description is for the agent choosing rules, who knows the files it works on: their words count there.
      taskTerms: new Set([...contentTerms(prose), ...pathWords(context.paths)]),
      taskLanguages: new Set(pathLanguages(context.paths)),
    },
    meaning,
  )
  let ranked = ranking.ranked
  if (ranking.droppedByLayer > 0) notes.push(`${ranking.droppedByLayer} directives left out because they apply only to other layers (strictLayer)`)
  if (ranking.droppedByScope > 0)
    notes.push(`${ranking.droppedByScope} directives left out because they apply only to other folders or files than the task names`)
  if (ranking.duplicates > 0) notes.push(`${ranking.duplicates} near-duplicate directives removed`)
  let fallback: string | undefined
  // A rule that is only close in meaning is a weak match: with nothing stronger, the core rules are served, the closest in meaning first.
  if (ranked.every((entry) => entry.byMeaningOnly === true)) {
    const core = coreRules(set, settings.coreItems, meaning)
    const order = meaning.size > 0 ? ', the closest to the task in meaning first' : ''
    fallback =
      set.directives.length === 0
        ? 'no accepted knowledge item states a rule yet (write one with MUST or SHOULD, or run mk rules ingest .)'
        : core.length === 0
          ? ranked.length === 0
            ? 'no rule matched the task, and no rule is meant for every task (set rules.coreItems in .mkrc)'
            : 'no rule matched the task: no rule is meant for every task (set rules.coreItems in .mkrc), so these are the rules closest to it in meaning'
          : settings.coreItems.length > 0
            ? `no rule matched the task: these are the core items named by rules.coreItems in .mkrc${order}`
            : `no rule matched the task: these are the rules meant for every task (always-applied and unscoped MUST rules; rules.coreItems in .mkrc chooses others)${order}`
    if (core.length > 0) ranked = core
    notes.push(fallback)
  }

  const memories = query.includeMemories ? (await sources.recall(task, rememberedLimit)).filter((fact) => fact.score >= similarityFloor) : []
  ranked = blockOrder(ranked, query.maxItems, Math.floor(query.maxItems * taskKindShare))
  const composed = composeBlock(ranked, memories, {
    tokenBudget: query.tokenBudget,
    maxItems: query.maxItems,
    includeBreadcrumbs: query.includeBreadcrumbs,
    countTokens: sources.countTokens,
    ...(fallback === undefined ? {} : { preface: `No rule matched this task: ${fallback.replace(/^no rule matched the task: /, '')}` }),
  })
  notes.push(...composed.cut.reason)
  notes.push(
    'ranked by layer, relevance (similarity, topic overlap, a path in scope, closeness in meaning), a rule before a procedure step, severity, authority, then directive over rule over pattern',
  )
  return {
    contextBlock: composed.contextBlock,
    ...(fallback === undefined ? {} : { fallback }),
    citations: composed.citations,
    tokens: composed.tokens,
    diagnostics: {
      detectedLayer: context.detectedLayer,
      topics: context.topics,
      keywords: context.keywords,
      scoringNotes: notes,
      retrievalStats: { searched: set.directives.length, considered: ranking.considered, selected: composed.citations.length },
      cut: { directives: composed.cut.directives, memories: composed.cut.memories },
    },
  }
}
