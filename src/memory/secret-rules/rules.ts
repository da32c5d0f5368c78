import { RE2JS } from 're2js'
import gitleaks from './gitleaks-rules.json' with { type: 'json' }
import own from './mk-rules.json' with { type: 'json' }

// gitleaks' default rule set (MIT, see the license in gitleaks-rules.json) and mk's own few rules
// in the same format, run with RE2 semantics as gitleaks runs them in Go, so matching stays
// linear in the text.

interface RuleData {
  id: string
  regex: string
  keywords: string[]
  entropy?: number
  secretGroup?: number
  allow?: { regex: string; target: string }[]
  stopwords?: string[]
}

interface CompiledRule {
  id: string
  /**
   * Compiled on first use, once per process: most rules never run, their keywords being absent
   * (compiling all 222 cost a cold process ~100 ms), and a rule's allow list is needed only when
   * it finds something (compiling every allow list cost each `memory add` ~13 ms).
   */
  regex: () => RE2JS
  keywords: string[]
  entropy: number | undefined
  secretGroup: number | undefined
  allow: () => { regex: RE2JS; target: string }[]
  stopwords: ReadonlySet<string>
}

export interface FoundSecret {
  ruleId: string
  secret: string
}

function once<Value>(make: () => Value): () => Value {
  let value: Value | undefined
  return () => (value ??= make())
}

let compiled: { rules: CompiledRule[]; allow: () => RE2JS[]; stopwords: string[] } | undefined

function rules(): NonNullable<typeof compiled> {
  compiled ??= {
    rules: [...(gitleaks.rules as RuleData[]), ...(own.rules as RuleData[])].map((rule) => ({
      id: rule.id,
      regex: once(() => RE2JS.compile(rule.regex)),
      keywords: rule.keywords.map((keyword) => keyword.toLowerCase()),
      entropy: rule.entropy,
      secretGroup: rule.secretGroup,
      allow: once(() => (rule.allow ?? []).map((entry) => ({ regex: RE2JS.compile(entry.regex), target: entry.target }))),
      stopwords: new Set((rule.stopwords ?? []).map((word) => word.toLowerCase())),
    })),
    allow: once(() => gitleaks.allow.map((pattern) => RE2JS.compile(pattern))),
    stopwords: gitleaks.stopwords.map((word) => word.toLowerCase()),
  }
  return compiled
}

/** Shannon entropy in bits per character, as gitleaks computes it. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>()
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1)
  let entropy = 0
  for (const count of counts.values()) {
    const p = count / text.length
    entropy -= p * Math.log2(p)
  }
  return entropy
}

/** The secret inside a match: the rule's secret group, else the first group that matched, else the whole match. */
function secretOf(matcher: ReturnType<RE2JS['matcher']>, rule: CompiledRule): string {
  if (rule.secretGroup !== undefined) return matcher.group(rule.secretGroup) ?? ''
  for (let group = 1; group <= matcher.groupCount(); group++) {
    const value = matcher.group(group)
    if (value !== null && value !== '') return value
  }
  return matcher.group() ?? ''
}

/**
 * gitleaks lets a value through when any stopword is a substring of it, so one random key in
 * twenty ("…SF66L8a5…flat…") leaks. A value counts as a placeholder here only when its words
 * (runs of letters, split at camelCase) that are stopwords make up at least half of it.
 */
function madeOfStopwords(secret: string, stopwords: ReadonlySet<string>): boolean {
  const words = secret.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? []
  const covered = words.filter((word) => stopwords.has(word.toLowerCase())).reduce((sum, word) => sum + word.length, 0)
  return covered * 2 >= secret.length
}

function allowed(secret: string, match: string, rule: CompiledRule, set: NonNullable<typeof compiled>): boolean {
  if (set.stopwords.some((word) => secret.toLowerCase().includes(word))) return true
  if (rule.stopwords.size > 0 && madeOfStopwords(secret, rule.stopwords)) return true
  if (set.allow().some((pattern) => pattern.matcher(secret).find())) return true
  return rule.allow().some((entry) => entry.regex.matcher(entry.target === 'match' ? match : secret).find())
}

/**
 * Many rules end a secret at a quote, a space or `;` only, so a token a sentence goes on from
 * (`sk_live_….`, `(ghp_…)`, `…,`) would pass. Punctuation that ends a word becomes a space, which
 * keeps every offset and every secret the same. A colon stays: rules read `name: value` by it.
 */
function endingPunctuationAsSpaces(text: string): string {
  return text.replace(/[.,!?)\]}>](?=\s|$)/g, ' ')
}

/** Every secret gitleaks' default rules and mk's own find in the text. A rule runs only when one of its keywords is in the text. */
export function findRuleSecrets(original: string): FoundSecret[] {
  const set = rules()
  const text = endingPunctuationAsSpaces(original)
  const lower = text.toLowerCase()
  const found: FoundSecret[] = []
  for (const rule of set.rules) {
    if (rule.keywords.length > 0 && !rule.keywords.some((keyword) => lower.includes(keyword))) continue
    const matcher = rule.regex().matcher(text)
    while (matcher.find()) {
      const secret = secretOf(matcher, rule)
      if (secret === '') continue
      if (rule.entropy !== undefined && shannonEntropy(secret) <= rule.entropy) continue
      if (allowed(secret, matcher.group() ?? '', rule, set)) continue
      found.push({ ruleId: rule.id, secret })
    }
  }
  return found
}
