/**
 * Whether a sentence or list item of a rules file is a rule (an instruction, a requirement, a
 * constraint) or something around the rules: a description, a file map, a command list, a link.
 * Rules files mix them freely ("`packages/browser/` — Browser SDK + CDN bundles" sits next to
 * "Never run `prettier`"); only the rules belong in the block an agent reads.
 */

/** Headings whose list items are rules in policy and rule items. */
export const normativeHeading =
  /\b(rules?|decisions?|polic(y|ies)|guidelines?|requirements?|conventions?|standards?|constraints?|do'?s|don'?ts|anti-?patterns?)\b/i

/** Words of a bold label that make what follows it a rule the author insists on. */
export const insistingLabel = /\b(critical|important|mandatory|required|must|never|always|warning|forbidden)\b/i

/** Headings of sections that describe the code rather than ask anything of it: "Overview", "Purpose", "Project Structure". */
export const descriptiveHeading =
  /^(overview|purpose|about|introduction|background|context|summary|architecture|structure|project structure|repository structure|layout|directory layout|entry points?|key files|key concepts|how it works|tech stack)\b/i

/** Whether a statement says in words that something is required or forbidden (not only by its shape or capitals). */
export function statesRequirement(text: string): boolean {
  return normativeWords.test(text)
}

/** Verbs an instruction starts with ("Use pnpm", "Keep tests independent"). */
const imperativeVerbs = new Set(
  (
    'add adjust aim align apply ask assess assume avoid be build bump call cancel check choose cite clean coordinate commit configure confirm consider ' +
    'consult copy cover create declare decide define delete describe design do document drop emit enable ensure exercise explain export ' +
    'extend favor favour fetch find fix focus follow format gate generate give group handle ignore implement import include inspect install ' +
    'introduce keep label lead leave limit link list lint locate log look make mark match mention merge migrate mind mock move name note ' +
    'obtain omit open pass pin place plan point post prefer prepare preserve prompt push put read rebuild record reduce refer reference ' +
    'register reject remember remind remove rename replace report require rerun reset resolve respect restart return reuse review revert ' +
    'run search see select send set ship skip sort specify split start stay stick stop store structure submit suggest switch sync tag ' +
    'target test think treat trigger try update upgrade use validate verify wait work wrap write'
  ).split(' '),
)

/** Words that make any sentence a requirement, in any case ("Tests must never depend on ..."). */
const normativeWords =
  /\b(must|mustn't|shall|should|shouldn't|never|always|required|mandatory|forbidden|prohibited|not allowed|do not|don't|avoid|prefer|only ever|need to|needs to|have to|has to|make sure|ensure|critical|important)\b/i

/** Capitals that a rules file writes to insist, in any sentence: "(NOT `.test.ts`)", "NEVER push". */
const insistingCapitals = /\b(NOT|NEVER|ALWAYS|ONLY|DO NOT)\b/

/** A capital NOT after a verb of being or having: a negated fact ("does NOT extend", "is NOT the package entry point"). */
const negatedFact = /\b(does|do|did|is|are|was|were|has|have|had|can|could|will|would)\s+NOT\b/g

/** Openings that carry the instruction themselves: "No `console.*` — use `logger`", "Only ...", "Please ...". */
const instructionOpening = /^(no|not|never|always|only|please|don't|do not)\b/i

/** A leading condition before the instruction: "When writing tests, focus on ..."; "If X, run Y". */
const leadingCondition = /^(when|whenever|if|before|after|for|in|while|once|unless|during|to)\b[^,;:]{0,140}[,:]\s*/i

/** `path` — what it is; Label: `command`; a bare link: the shape of maps and references. */
const mapEntry = /^(`[^`]+`|\[[^\]]+\]\([^)]+\)|[\w@./{}*-]+\/[\w@./{}*-]*)\s*(—|–|-|:|=|→)\s*/
const labelledValue = /^[\p{L}\p{N} ()/'-]{1,40}:\s*(`|\[|https?:)/u
const bareLink = /^\[[^\]]+\]\([^)]+\)\.?$/
/** Words that make a label before a colon an instruction rather than a name. */
const instructingLabel = /\b(must|never|always|do not|don't|should|only)\b/i
/**
 * What a parameter list writes after a name in code: "`table`: Table name (required)", "(default: `[x]` if not
 * specified)". After a command ("Lint: `pnpm lint` (required)") "(required)" is a requirement.
 */
const parameterAnnotation = /\((?:required|optional)\)|\(default\b(?:[^()]|\([^()]*\))*\)/gi
/** Code spans: capitals inside them are code ("`CREATE TABLE IF NOT EXISTS`"), not the author insisting. */
const codeSpans = /`[^`]*`/g
/** A word that could be a verb, then a verb of being or having: a statement about a thing so named ("SYNC is not necessary ..."). */
const statementAboutName = /^[\p{L}']+\s+(?:is|isn't|are|aren't|was|were|has|have|does|doesn't|can|will|would)(?=\s|$)/iu
/** A table, which CommonMark reads as a paragraph of pipes: a map or a matrix, never one rule. */
const table = /^\||\|\s*:?-{3,}/

/** Marks of emphasis a rules file writes in front of a rule: **CRITICAL**, **IMPORTANT - ...:**, MANDATORY. */
const emphasisLabel = /^(\*\*)?(critical|important|mandatory|note|warning)\b[^:]*:\s*(\*\*)?\s*/i

/** A label that introduces an example ("Example: patch summary file lines"): it shows a rule, it asks nothing itself. */
const exampleLabel = /^(examples?|for example|for instance|e\.g\.?)\s*[^:]{0,60}:/i

/** A requirement stated of every member of a kind: "Every doc needs `[MODES: ...]`", "Each package requires a README". */
const quantifiedRequirement = /^(every|each|all)\s+[\p{L}\p{N}_-]+(?:\s+[\p{L}\p{N}_-]+)?\s+(needs|need|requires|require)\b/iu

export type StatementKind = 'rule' | 'description'

function firstWord(text: string): string {
  return (/^[\p{L}']+/u.exec(text)?.[0] ?? '').toLowerCase()
}

/**
 * A label of up to three words before a colon that names what the instruction after it is about ("Async testing: use
 * anyio, not asyncio", "Errors: Use `StructuredError`"); a longer one is a sentence of its own ("What turbopack does NOT
 * support: build-time wrapping").
 */
const topicLabel = /^[\p{L}\p{N}()/&'-]+(?: [\p{L}\p{N}()/&'-]+){0,2}:\s+/u

/** The text with list numbering, emphasis or topic labels and a leading condition taken off: what the instruction starts with. */
function instructionPart(text: string): string {
  const plain = text
    .replace(/^\d+[.)]\s+/, '')
    .replace(emphasisLabel, '')
    .replace(topicLabel, '')
  return plain.replace(leadingCondition, '')
}

/** A pointer to a file Claude Code imports (`See @AGENTS.md`), which ingest follows instead of serving. */
export function isImportPointer(text: string): boolean {
  return (
    /@[\w./-]+\.md\b/.test(text) &&
    text
      .replace(/@[\w./-]+/g, '')
      .replace(/[^\p{L}]+/gu, ' ')
      .trim()
      .split(' ').length <= 12
  )
}

/** Rule or description, by the shape of the text alone; under a heading such as "Conventions" a plain statement is a rule too. */
export function statementKind(text: string, underRulesHeading = false): StatementKind {
  const trimmed = text.trim()
  if (trimmed === '' || trimmed.endsWith('?') || bareLink.test(trimmed) || table.test(trimmed)) return 'description'
  if (isImportPointer(trimmed)) return 'description'
  const pathEntry = mapEntry.exec(trimmed)
  const map = pathEntry ?? labelledValue.exec(trimmed)
  // A map entry is a rule only when what it says about the path is one ("`packages/types/` — deprecated, never modify").
  // Nor is a label one, unless it is an instruction itself ("Never upgrade to these versions: `2.x.x`; ..."), or, in a
  // rules section, a convention that names no path ("Test files: `*.test.ts` alongside source files").
  if (map !== null) {
    const rest = trimmed.slice(map[0].length)
    const value = pathEntry !== null && map[0].startsWith('`') ? rest.replace(parameterAnnotation, '') : rest
    // The label's match ends with the code span's opening backtick, so the value up to the next backtick is the span's text.
    const labelledCode = map[0].endsWith('`') ? value.split('`', 1)[0] : undefined
    const convention = underRulesHeading && pathEntry === null && labelledCode !== undefined && !labelledCode.includes('/')
    return normativeWords.test(value) || instructingLabel.test(map[0]) || convention ? 'rule' : 'description'
  }
  if (exampleLabel.test(trimmed) && !normativeWords.test(trimmed)) return 'description'
  // "Turbopack does NOT support ..." states a fact in capitals; "(NOT `.test.ts`)" insists.
  const insisting = insistingCapitals.test(trimmed.replace(codeSpans, ' ').replace(negatedFact, ' '))
  if (normativeWords.test(trimmed) || insisting || underRulesHeading) return 'rule'
  const instruction = instructionPart(trimmed)
  if (instructionOpening.test(instruction) || quantifiedRequirement.test(instruction)) return 'rule'
  const imperative = imperativeVerbs.has(firstWord(instruction)) && !statementAboutName.test(instruction)
  return imperative || laterInstruction(instruction) ? 'rule' : 'description'
}

/** "see X", "refer to Y" after a comma points to more reading; it asks nothing of the change itself. */
const pointerVerbs = new Set(['see', 'refer', 'read', 'reference', 'consult', 'look'])

/** A verb followed by what it acts on: code, an article or pronoun, or a word and a preposition ("add `x` to y", "run the tests"), not a noun phrase ("build tools"). */
const verbWithObject =
  /^[\p{L}']+\s+(`|(the|a|an|it|them|this|that|these|those|its|their|with|to|in|on|from|into)\b|\S+\s+(to|in|into|with|for|from|on|as|under)\b)/u

/**
 * A series of instructions whose first verb is not one the list knows goes on with one it does: "Edit JSDoc in
 * `lib/`, run `pnpm docs`", "Prefix `unstable_`, add `unstable: true` to frontmatter". Its later clauses start
 * with a verb in lower case; a description's list of things ("Manual bundler, runtime route config") does not.
 */
function laterInstruction(instruction: string): boolean {
  if (!/^\p{Lu}/u.test(instruction)) return false
  const firstSentence = instruction.split(/[.:!?](?:\s|$)/, 1)[0] ?? ''
  return firstSentence
    .split(/[,;]\s+(?:and\s+|then\s+)?/)
    .slice(1)
    .some((clause) => /^\p{Ll}/u.test(clause) && !pointerVerbs.has(firstWord(clause)) && imperativeVerbs.has(firstWord(clause)) && verbWithObject.test(clause))
}

/** Plain-word strength of a rule without a BCP 14 keyword: MUST when it forbids or insists, else SHOULD. */
export function plainWordsAreStrict(text: string): boolean {
  return (
    /\b(must|shall|never|required|mandatory|do not|don't|forbidden|prohibited|not allowed|always)\b/i.test(text) ||
    /^(\*\*)?(critical|mandatory)\b/i.test(text) ||
    /^no\b/i.test(text)
  )
}
