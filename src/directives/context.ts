import { extname } from 'node:path'
import { Minimatch } from 'minimatch'
import { identifierParts } from '../search/identifier-parts.js'
import { isStopWord } from '../search/query-text.js'
import { stem, words } from '../words.js'
import { matchTerms, pathsIn, termKey } from './terms.js'
import { modes, type ModeSlug } from './modes.js'
import { taskHeadNoun } from './task-intent.js'
import shipped from './vocabulary.json' with { type: 'json' }

/** `.mkrc` rules.topics / rules.layers: a name and its keywords; an entry with `/` or `*` is a path glob. */
export type VocabularyExtension = Readonly<Record<string, readonly string[]>>

export interface ContextVocabulary {
  topicsByTerm: ReadonlyMap<string, readonly string[]>
  layersByTerm: ReadonlyMap<string, readonly string[]>
  topicGlobs: readonly { name: string; glob: Minimatch }[]
  layerGlobs: readonly { name: string; glob: Minimatch }[]
  layers: ReadonlySet<string>
}

export interface DetectedContext {
  /** The architecture layer the task is most about, if any word says. */
  detectedLayer: string | undefined
  /** Every layer with at least half the evidence of the first: a task can span persistence and application. */
  layers: string[]
  topics: string[]
  /** The topics of the noun the task's verb acts on ("tests" of "Write tests for ..."): the kind of work, not its subject. */
  intentTopics: string[]
  /** That noun and its base forms, as stems ("test"): a section whose heading says one of them is on the kind of work by name. */
  taskKindWords: string[]
  /** The task's most specific technical words. */
  keywords: string[]
  /** 0–1: how much vocabulary evidence the detection rests on. */
  confidence: number
  /** Paths named in the task, matched against applies_to globs. */
  paths: string[]
}

/** Words every task uses ("add a new ..."): they say what to do, not what it is about. */
const taskVerbs = new Set(
  'add adds added adding new create creates created creating make makes making update updates updating change changes changing fix fixes fixing implement implements implementing write writes writing need needs want let please also now'.split(
    ' ',
  ),
)

/** The words of a text that say what it is about, as stems: no stop words, numbers or words every task uses. */
export function contentTerms(text: string): string[] {
  return words(text)
    .filter((word) => word.length >= 3 && !isStopWord(word) && !taskVerbs.has(word) && !/^\d+$/.test(word))
    .map(stem)
}

/** The language a file's extension names, in the words a rule's description uses ("frontend code (React + TypeScript)"). */
const languagesByExtension: Readonly<Record<string, readonly string[]>> = {
  ts: ['typescript'],
  mts: ['typescript'],
  cts: ['typescript'],
  // JSX is React's syntax first; Preact and Solid write it too, so it counts only beside a word of the task.
  tsx: ['typescript', 'react'],
  js: ['javascript'],
  mjs: ['javascript'],
  cjs: ['javascript'],
  jsx: ['javascript', 'react'],
  py: ['python'],
  rs: ['rust'],
  rb: ['ruby'],
  java: ['java'],
  kt: ['kotlin'],
  swift: ['swift'],
  php: ['php'],
  vue: ['vue'],
  svelte: ['svelte'],
  css: ['css'],
  scss: ['scss', 'css'],
  sql: ['sql'],
  md: ['markdown'],
  mdx: ['markdown'],
}

/** Folder names every project has: they say where code sits, not what it is about (`src/lib/components/api.ts`). */
const scaffoldingWords = new Set(
  'src lib libs app apps package packages component components util utils api apis test tests spec specs web core common shared internal pkg cmd main index dist build'.split(
    ' ',
  ),
)

/**
 * The words a task's files say it is about, as stems: their folders' and names' words, camel case split, without the
 * folders every project has (`frontend/src/lib/components/InsightLegend.tsx`: frontend, insight, legend).
 */
export function pathWords(paths: readonly string[]): string[] {
  return paths.flatMap((path) =>
    contentTerms(
      path
        .slice(0, path.length - extname(path).length)
        .split(/[/._-]+/)
        .flatMap(identifierParts)
        .join(' '),
    ).filter((word) => !scaffoldingWords.has(word)),
  )
}

/** The languages a task's files are written in, by their extensions (`.tsx`: typescript, react). */
export function pathLanguages(paths: readonly string[]): string[] {
  return paths.flatMap((path) => languagesByExtension[extname(path).slice(1).toLowerCase()] ?? [])
}

const isGlob = (entry: string): boolean => entry.includes('/') || entry.includes('*')

function addTerms(target: Map<string, string[]>, name: string, phrases: readonly string[]): void {
  for (const phrase of phrases) {
    if (isGlob(phrase)) continue
    const key = termKey(phrase)
    if (key === '') continue
    const names = target.get(key) ?? []
    if (!names.includes(name)) target.set(key, [...names, name])
  }
}

function globsOf(extension: VocabularyExtension): { name: string; glob: Minimatch }[] {
  return Object.entries(extension).flatMap(([name, entries]) => entries.filter(isGlob).map((entry) => ({ name, glob: new Minimatch(entry, { dot: true }) })))
}

/**
 * The shipped vocabulary, the organisation's additions from `.mkrc`, and the topics and tags the
 * knowledge itself uses (a tag `pii` is a topic a task can name).
 */
export function buildVocabulary(options: {
  topics?: VocabularyExtension
  layers?: VocabularyExtension
  knowledgeTopics?: readonly string[]
  learnedTopics?: VocabularyExtension
}): ContextVocabulary {
  const topicsByTerm = new Map<string, string[]>()
  const layersByTerm = new Map<string, string[]>()
  for (const [name, phrases] of Object.entries(shipped.topics)) addTerms(topicsByTerm, name, [name, ...phrases])
  for (const [name, phrases] of Object.entries(options.topics ?? {})) addTerms(topicsByTerm, name, [name, ...phrases])
  for (const topic of options.knowledgeTopics ?? []) addTerms(topicsByTerm, topic.toLowerCase(), [topic])
  for (const [name, phrases] of Object.entries(options.learnedTopics ?? {})) addTerms(topicsByTerm, name, phrases)
  for (const [name, phrases] of Object.entries(shipped.layers)) addTerms(layersByTerm, name, [name, ...phrases])
  for (const [name, phrases] of Object.entries(options.layers ?? {})) addTerms(layersByTerm, name, [name, ...phrases])
  return {
    topicsByTerm,
    layersByTerm,
    topicGlobs: globsOf(options.topics ?? {}),
    layerGlobs: globsOf(options.layers ?? {}),
    layers: new Set([...Object.keys(shipped.layers), ...Object.keys(options.layers ?? {})]),
  }
}

/** Heading words that name no subject: every rules file has an "Overview" or "Quick commands". */
const headingFillers = new Set(
  'overview purpose notes note guide guides guidelines rules rule general info information specific key quick high signal entry points important additional reference references documentation docs structure contract maintenance other misc tips section file files command commands common agent agents claude codex copilot cursor package packages repo repository project start here using use how what when why new'.split(
    ' ',
  ),
)

/**
 * A word and its base forms without -ing or -ed ("linting" and "lint", "formatting" and "format",
 * "handling" and "handle", "logging" and "log"), so a task's "lint" meets a heading's "Linting".
 */
export function withBase(word: string): string[] {
  const stripped = /^(.{3,}?)(?:ing|ed)$/.exec(word)?.[1]
  if (stripped === undefined) return [word]
  const undoubled = /(\w)\1$/.test(stripped) ? [stripped.slice(0, -1)] : []
  return [...new Set([word, stripped, `${stripped}e`, ...undoubled])]
}

/** The stems of a word and of its base forms: "Testing" and "tests" both give "test". */
export function baseStems(word: string): string[] {
  return [...new Set(withBase(word).map(stem))]
}

/**
 * Topics learned from the knowledge itself: each heading a rule sits under ("Linting & Formatting",
 * "Pull Requests", "Queue Playbook") is a topic named by its words, so a task that says "lint" or
 * "pull request" is about the rules under it, whatever words the rules themselves use.
 */
export function headingTopics(headings: Iterable<string>): Record<string, string[]> {
  const learned: Record<string, string[]> = {}
  for (const heading of headings) {
    const terms = words(heading).filter(
      (word) => word.length >= 3 && !isStopWord(word) && !headingFillers.has(word) && !taskVerbs.has(word) && !/^\d+$/.test(word),
    )
    if (terms.length === 0 || terms.length > 4) continue
    const name = terms.join(' ')
    learned[name] = [...new Set([...(learned[name] ?? []), ...terms.flatMap(withBase)])]
  }
  return learned
}

/** How many distinct vocabulary terms of the text name each topic or layer. */
function tally(text: string, byTerm: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const term of new Set(matchTerms(text, byTerm))) for (const name of byTerm.get(term) ?? []) counts.set(name, (counts.get(name) ?? 0) + 1)
  return counts
}

/** The topics a text is about, by the vocabulary alone: what a directive's own words say when its item declares none. */
export function topicsOf(text: string, vocabulary: ContextVocabulary): string[] {
  return [...tally(text, vocabulary.topicsByTerm).keys()]
}

function rankedNames(counts: ReadonlyMap<string, number>): string[] {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name)
}

/** The task's words that say most: vocabulary terms (longest first), then other content words, longest first. */
function specificKeywords(text: string, vocabulary: ContextVocabulary, limit: number): string[] {
  const known: string[] = []
  const other: string[] = []
  for (const word of words(text)) {
    if (word.length < 3 || isStopWord(word) || taskVerbs.has(word) || /^\d+$/.test(word)) continue
    const key = stem(word)
    const target = vocabulary.topicsByTerm.has(key) || vocabulary.layersByTerm.has(key) ? known : other
    if (!target.includes(word)) target.push(word)
  }
  const byLength = (a: string, b: string): number => b.length - a.length
  return [...known.sort(byLength), ...other.sort(byLength)].slice(0, limit)
}

/** Which topics and architecture layer a task is about: vocabulary words, path globs, and the agent's mode. */
export function detectContext(text: string, vocabulary: ContextVocabulary, modeSlug?: ModeSlug): DetectedContext {
  const paths = pathsIn(text)
  // The words of a path are for its globs, not its topics: `packages/core/x.ts` is not about dependencies.
  const prose = paths.reduce((rest, path) => rest.split(path).join(' '), text)
  const topicCounts = tally(prose, vocabulary.topicsByTerm)
  const layerCounts = tally(prose, vocabulary.layersByTerm)
  for (const path of paths) {
    for (const { name, glob } of vocabulary.topicGlobs) if (glob.match(path)) topicCounts.set(name, (topicCounts.get(name) ?? 0) + 2)
    for (const { name, glob } of vocabulary.layerGlobs) if (glob.match(path)) layerCounts.set(name, (layerCounts.get(name) ?? 0) + 2)
  }
  const mode = modeSlug === undefined ? undefined : modes[modeSlug]
  // A bias below 1 only tips a layer the words already name; a full bias names it on its own.
  for (const [layer, bias] of Object.entries<number>(mode?.layers ?? {})) {
    if ((layerCounts.get(layer) ?? 0) > 0 || bias >= 1) layerCounts.set(layer, (layerCounts.get(layer) ?? 0) + bias)
  }
  for (const topic of mode?.topics ?? []) topicCounts.set(topic, (topicCounts.get(topic) ?? 0) + 1)

  const layers = rankedNames(layerCounts)
  const headNoun = taskHeadNoun(prose)
  const top = layerCounts.get(layers[0] ?? '') ?? 0
  const evidence = [...topicCounts.values(), ...layerCounts.values()].reduce((sum, count) => sum + count, 0)
  return {
    detectedLayer: layers[0],
    layers: layers.filter((layer) => (layerCounts.get(layer) ?? 0) * 2 >= top),
    topics: rankedNames(topicCounts),
    intentTopics: topicsOf(headNoun ?? '', vocabulary),
    taskKindWords: headNoun === undefined ? [] : baseStems(headNoun),
    keywords: specificKeywords(text, vocabulary, 8),
    confidence: Math.round((1 - 0.6 ** evidence) * 100) / 100,
    paths,
  }
}
