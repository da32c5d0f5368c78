import { Minimatch } from 'minimatch'
import { knowledgeLayers } from '../config/layers.js'
import type { ContextVocabulary, DetectedContext } from './context.js'
import { baseStems, contentTerms, topicsOf } from './context.js'
import { words } from '../words.js'
import { normativeHeading } from './statement-kind.js'
import { mentionedPaths, mentionMatch, type MentionedPath } from './mentioned-paths.js'
import { directiveHeadings, headingsBelowTitle, severityRank, type Directive } from './model.js'

/** A directive with what ranking needs precomputed once per knowledge version. */
export interface RankableDirective {
  directive: Directive
  /** Vocabulary topics of its own words and of the headings it sits under (the item's title aside). */
  ownTopics: ReadonlySet<string>
  /** Declared topics and tags of its item and the topics of the item's title: true of every directive in it. */
  itemTopics: ReadonlySet<string>
  /** Vocabulary topics of the headings it sits under and of its item's title: the kind of work its section is about ("Testing"). */
  sectionTopics: ReadonlySet<string>
  /** The words of those headings and that title with their base forms, as stems ("Testing Standards": testing, test, standard). */
  sectionWords: ReadonlySet<string>
  authoritativeFor: ReadonlySet<string>
  /** applies_to entries that are architecture layers. */
  appliesToLayers: readonly string[]
  /** applies_to entries that are path globs. */
  appliesToGlobs: readonly Minimatch[]
  /** Files and folders its text names, read from its item's folder. */
  mentioned: readonly MentionedPath[]
  /** Under a heading that says it holds rules ("Conventions", "Anti-Patterns"), not a description of the code. */
  underRulesHeading: boolean
}

export interface DirectiveTopics {
  ownTopics: string[]
  itemTopics: string[]
}

const lower = (values: readonly string[]): string[] => values.map((value) => value.toLowerCase())

/**
 * The headings a directive sits under below its document's title (the title names the whole file,
 * not the rule), and the bold label captioning its list, which is a small heading.
 */
function headingsUnderTitle(directive: Directive): string[] {
  return headingsBelowTitle(directiveHeadings(directive), directive.itemTitle)
}

/** What a directive is about; computed when the index is refreshed, because the vocabulary pass is the costly part of ranking. */
export function directiveTopics(directive: Directive, vocabulary: ContextVocabulary): DirectiveTopics {
  return {
    ownTopics: topicsOf(`${headingsUnderTitle(directive).join(' ')} ${directive.context ?? ''} ${directive.text}`, vocabulary),
    itemTopics: [...new Set([...lower(directive.topics), ...lower(directive.tags), ...topicsOf(directive.itemTitle, vocabulary)])],
  }
}

export function prepareDirective(directive: Directive, vocabulary: ContextVocabulary, topics = directiveTopics(directive, vocabulary)): RankableDirective {
  const section = [directive.itemTitle, ...headingsUnderTitle(directive)].join('. ')
  return {
    directive,
    ownTopics: new Set(topics.ownTopics),
    itemTopics: new Set(topics.itemTopics),
    sectionTopics: new Set(topicsOf(section, vocabulary)),
    sectionWords: new Set(words(section).flatMap(baseStems)),
    authoritativeFor: new Set(lower(directive.authoritativeFor)),
    appliesToLayers: lower(directive.appliesTo).filter((entry) => vocabulary.layers.has(entry)),
    appliesToGlobs: directive.appliesTo.filter((entry) => entry.includes('/') || entry.includes('*')).map((entry) => new Minimatch(entry, { dot: true })),
    mentioned: mentionedPaths(directive.context === undefined ? directive.text : `${directive.text} ${directive.context}`, directive.appliesTo),
    // The document's title ("Codex Guidelines for worker") says what the whole file is; the headings under it tell its rules from the rest.
    underRulesHeading: headingsUnderTitle(directive).some((heading) => normativeHeading.test(heading)),
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
  /** The task's content words (contentTerms) and its files' words (pathWords), matched against the descriptions of rules an agent requests. */
  taskTerms?: ReadonlySet<string>
  /** The languages of the task's files (pathLanguages): they count towards a description's fit beside a word of the task, never alone. */
  taskLanguages?: ReadonlySet<string>
}

export interface RankedDirective {
  directive: Directive
  /** Why it was chosen, in a few words ("applies to persistence; covers security"). */
  rationale: string
  /** Ranking keys in priority order, for diagnostics. */
  keys: number[]
  /** Taken part only for being close to the task in meaning: no word, topic, file or activation of its own matched. */
  byMeaningOnly?: boolean
  /** A heading of its section names the kind of work the task is ("Testing Standards", for "Write a test that ..."). */
  onTaskKind?: boolean
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
 * A rule under a rules heading ("Conventions", "Anti-Patterns") of the nearest rules file to the
 * task's files: what the owners of that folder require of every change in it (AGENTS.md: the
 * nearest file takes precedence). It counts as much as naming a file the task touches, so it is
 * not crowded out by rules of the root that only share a word with the task.
 */
const nearestConventions = 0.2

/**
 * A rule in a section on the kind of work the task is ("Testing" for "Write a test for the stdio
 * client timeout"): how the repository wants that work done. A tenth, like a topic of the task:
 * twice that put a seen set's test-writing task behind other testing rules and let "endpoint" of
 * "Add a public API endpoint" pull a whole playbook in (issue 29, ADR 0034).
 */
const taskKindWeight = 0.1

/**
 * How relevant a rule is to the task, in bands: its similarity to the task (words and meaning), a
 * tenth for each topic of the task its own words name (at most two), half that for one it has from
 * its item, a tenth for sitting in a section on the task's kind of work, a tenth when a file the
 * task names matches its file globs, a tenth for being among the rules closest to the task in
 * meaning, and half a tenth for authority on a topic of the task.
 * So authority tips rules that are about as relevant, and never puts a rule on the task's topic in
 * general before one about the task itself; severity breaks the ties left.
 */
interface Evidence {
  score: number
  ownTopics: number
  itemTopics: number
  fileMatch: boolean
  /** Scoped to a folder the task works in: the nearest rules file. */
  nearest: boolean
  authority: boolean
  close: boolean
  /** It sits in a section on the kind of work the task is ("Testing", for "Write tests for ..."). */
  intent: boolean
  /** 2: the rule names a file the task touches; 1: a folder holding one. */
  mention: number
  /** A rule an agent requests, whose description fits the task. */
  requested: boolean
  emphasis: boolean
  underRulesHeading: boolean
}

function relevanceBand(evidence: Evidence): number {
  const relevance =
    evidence.score +
    0.1 * Math.min(2, evidence.ownTopics) +
    0.05 * Math.min(2, evidence.itemTopics) +
    (evidence.intent ? taskKindWeight : 0) +
    (evidence.fileMatch ? 0.1 : 0) +
    (evidence.nearest ? (evidence.underRulesHeading ? nearestConventions : 0.05) : 0) +
    (evidence.authority ? 0.05 : 0) +
    (evidence.close ? 0.1 : 0) +
    0.1 * evidence.mention +
    (evidence.requested ? 0.2 : 0) +
    (evidence.emphasis ? 0.1 : 0) +
    (evidence.underRulesHeading ? 0.05 : 0)
  return Math.floor(relevance / bandWidth + 1e-9)
}

/** Words a description uses to say it is a description ("Use this rule if you are looking to ...", "Guidelines for ..."). */
const descriptionFillers = new Set('rule rules look looking need guideline guidelines how use using when whenever about want wish'.split(' '))

/**
 * The descriptions of rules an agent requests (Cursor's "agent requested") that fit the task: the
 * agent reads the descriptions and asks for a rule when the task is what its description says it
 * is for. A description fits when the task names at least a third of the words it is about, in its
 * words or its files' (`frontend/…` for "frontend code"), the files' language counting beside them but
 * never alone; words most descriptions share ("Sentry JavaScript SDKs") tell none apart, so they do not count.
 */
function fittingRequests(candidates: readonly RankableDirective[], taskTerms: ReadonlySet<string>, languages: ReadonlySet<string>): Set<string> {
  const descriptions = new Map<string, string[]>()
  for (const { directive } of candidates)
    if (directive.requestedWhen !== undefined && !descriptions.has(directive.requestedWhen))
      descriptions.set(directive.requestedWhen, [...new Set(contentTerms(directive.requestedWhen).filter((term) => !descriptionFillers.has(term)))])
  const frequency = new Map<string, number>()
  for (const terms of descriptions.values()) for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  const common = (term: string): boolean => descriptions.size >= 3 && (frequency.get(term) ?? 0) * 2 >= descriptions.size
  const fitting = new Set<string>()
  for (const [description, terms] of descriptions) {
    const telling = terms.filter((term) => !common(term))
    const named = telling.filter((term) => taskTerms.has(term)).length
    const shared = named + telling.filter((term) => !taskTerms.has(term) && languages.has(term)).length
    if (named > 0 && shared * 3 >= telling.length) fitting.add(description)
  }
  return fitting
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
  const intentTopics = new Set(context.intentTopics)
  const layers = new Set(context.layers)
  const scored: RankedDirective[] = []
  const closest = closestInMeaning(candidates, meaning, options)
  const requested = fittingRequests(candidates, options.taskTerms ?? new Set(), options.taskLanguages ?? new Set())
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
    // A file glob (`**/*.tsx`) matching says the rule is about the task's files; a folder (`web/**`) matching says its file is the
    // nearest rules file to them, which takes precedence over the root's (AGENTS.md): both count, a file match more.
    const fileMatch = matching.some((glob) => !/^[^*?[{]*\/\*\*$/.test(glob.pattern))
    const nearest = pathMatch && !fileMatch
    // Rules scoped to folders or files (a nested AGENTS.md, Cursor globs) stay out of a task that names only other paths.
    if (candidate.appliesToGlobs.length > 0 && context.paths.length > 0 && !pathMatch) {
      droppedByScope++
      continue
    }
    const always = activation === 'always'
    const score = similarity.get(candidate.directive.id) ?? 0
    const close = closest.has(candidate.directive.id)
    // A rule an agent requests is served when its description fits the task (or its own words match it well), as the agent would ask for it.
    if (candidate.directive.requestedWhen !== undefined && !requested.has(candidate.directive.requestedWhen) && score < options.similarityFloor) continue
    const mention = mentionMatch(candidate.mentioned, context.paths)
    const requestedBy = candidate.directive.requestedWhen !== undefined && requested.has(candidate.directive.requestedWhen)
    const matched = authority.length > 0 || overlap.length > 0 || pathMatch || mention > 0 || requestedBy
    if (!matched && !always && !close && score < options.similarityFloor) continue
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
      mention === 2 ? 'names a file the task touches' : mention === 1 ? 'names a folder the task works in' : undefined,
      requestedBy ? 'its description fits the task' : undefined,
      pathMatch ? 'matches the paths named' : undefined,
      layerMatches.length > 0 ? `applies to ${layerMatches.join(', ')}` : undefined,
      covers.length > 0 ? `covers ${covers.slice(0, 2).join(', ')}` : undefined,
      !matched && score >= options.similarityFloor ? 'similar wording' : undefined,
      close && !matched && score < options.similarityFloor ? 'close in meaning' : undefined,
      always && !matched && !close && score < options.similarityFloor ? 'always applies' : undefined,
    ].filter((reason): reason is string => reason !== undefined)
    const byMeaningOnly = !matched && !always && score < options.similarityFloor
    const intent = [...candidate.sectionTopics].some((topic) => intentTopics.has(topic))
    // And by the heading's own word: a learned topic ("testing standards") is also named by its other words ("Coding Standards").
    const onTaskKind = intent && context.taskKindWords.some((word) => candidate.sectionWords.has(word))
    scored.push({
      directive: candidate.directive,
      rationale: reasons.join('; '),
      ...(byMeaningOnly ? { byMeaningOnly } : {}),
      ...(onTaskKind ? { onTaskKind } : {}),
      keys: [
        // Strict mode has already dropped the rules for other layers; the rest (for this layer or for every layer) rank alike.
        layerMismatch ? -1 : 0,
        relevanceBand({
          score,
          ownTopics: ownOverlap.length,
          itemTopics: itemOverlap.length,
          intent,
          fileMatch,
          nearest,
          authority: authority.length > 0,
          close,
          mention,
          requested: requestedBy,
          emphasis: candidate.directive.emphasis === true,
          underRulesHeading: candidate.underRulesHeading,
        }),
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
