import { shannonEntropy, type FoundSecret } from './rules.js'

// Secrets the rule sets cannot know by their shape ("the wifi pwd is Kx7#mPq2vL9w", "our Twilio
// auth token for prod is 4f3c…"), found by the words in front of them: a word that names a secret,
// then, a few words on in the same sentence, a token that looks random.

/** Words that name a secret. `key` alone counts too: "Mailgun key is key-…", "Azure storage key for x: …". */
const secretWord =
  /\b(?:pass(?:word|wd|phrase|code)?s?|pwd|secrets?|tokens?|credentials?|keys?|apikey|bearer|auth|dsn)\b|\b(?:api|access|secret|private|account|signing|master|encryption|client)[ _-]?keys?\b/gi
const passwordWord = /^(?:pass(?:word|wd|phrase|code)?s?|pwd)$/i

/** How many words after a secret word a value may stand: "the Linear API token we use for the changelog is X". */
const wordsAfter = 8

/** A token right after one of these words is an identifier, not a secret: "the key change is in commit 9fceb02…". */
const identifierWords = new Set([
  'commit',
  'sha',
  'sha1',
  'sha256',
  'sha512',
  'md5',
  'hash',
  'checksum',
  'digest',
  'revision',
  'rev',
  'id',
  'uuid',
  'ulid',
  'trace',
  'request',
  'run',
  'build',
  'version',
  'release',
  'issue',
  'ticket',
  'memory',
  'file',
  'path',
  'branch',
  'tag',
])

/** Quotes, brackets and the punctuation a sentence puts around a value. */
function bare(token: string): string {
  return token.replace(/^[("'`[<{=:]+/, '').replace(/[)"'`\]>}.,;:!?]+$/, '')
}

function classesOf(value: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(value)).length
}

/**
 * A name as code writes it (`extra`, `Connection`, `read_text`, `createAuth`, `AUTH_SECRET`): two or more lower-case
 * letters after each capital, capitals only with underscores between them, no digits after a word: "Key99",
 * "ABCD1234" and "Kx7" are not names.
 */
const identifier = String.raw`(?:[a-z]{2,}|[A-Z][a-z]{2,}|[A-Z]{2,}(?:_[A-Z0-9]+)+)(?:[A-Z][a-z]{2,}|_[a-z0-9]+)*`
/** Arguments as code writes them: `name=value`, a quoted name. */
const argument = String.raw`(?:[a-z_]\w*=[\w.'"]*|"[\w.-]*"?|'[\w.-]*'?)`
/**
 * Code named in a sentence: a dotted path with a lower-case part (`Connection.extra`, `process.env.AUTH_SECRET`; not
 * "Secret.Key"), or a call that ends as code's do (`createAuth({`, `field(repr=False)`, `os.environ.get("API_TOKEN")`,
 * `Path.read_text()`), not as a password's ("Summer(fun)2024").
 */
const dottedPath = new RegExp(String.raw`^${identifier}(?:\.${identifier})+(?:\(\))?$`)
const call = new RegExp(String.raw`^${identifier}(?:\.${identifier})*\((?:\)?|[{[]|${argument}(?:,${argument})*\)?)$`)
const codeShape = (value: string): boolean => (dottedPath.test(value) && /(?:^|\.)[a-z]/.test(value)) || call.test(value)
/** "doesn't", "it's", "we'll"; not "McDonald's". */
const contraction = /^[A-Za-z][a-z]+'(?:s|t|re|ve|ll|d|m)$/
/**
 * "pass" the verb: after a word that leads a verb ("Always pass", "they pass") and before an article, a pronoun or a
 * conjunction ("pass the whole dict", "pass and check"). "The guest wifi pass in the lobby is ..." names a password.
 */
const leadsVerbPass = new Set('always never must should can could will would please to they we you then also just only first and or not'.split(' '))
const afterVerbPass = new Set('the a an this that these those its their your our all any every each it them and or'.split(' '))

/** Values that look random but are ids, names, dates, versions, paths or placeholders. */
function isOrdinary(value: string): boolean {
  return (
    value.includes('://') ||
    /^mem_[0-9A-Z]{26}$/.test(value) ||
    /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/.test(value) ||
    /^v?\d+(?:\.\d+)+(?:[-+][\w.]+)?$/.test(value) ||
    // slugs and lower-case names: adr-0042-password-policy, gh-pages, release_notes_v2
    (/^[a-z0-9]+(?:[-_.][a-z0-9]+)+$/.test(value) && value.split(/[-_.]/).every((part) => /^(?:[a-z]+|\d+)$/.test(part))) ||
    // host names and paths in lower case: db01.internal, config/app-v2.yaml, ./scripts/run.sh
    /^(?:~|\.{1,2})?\/?[a-z0-9_.-]+(?:[./][a-z0-9_-]+)+(?::\d+)?\/?$/.test(value) ||
    /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(value) ||
    /^\$\{?[A-Za-z_]\w*\}?$|^<[^>]*>$|^\{\{.*\}\}$/.test(value) ||
    // a command-line flag or a keyword argument without its value: "pass `--frozen`", "pass `encoding=`"
    /^--?[a-z][a-z0-9-]*$|^[a-z_][a-z0-9_]*=$/.test(value) ||
    codeShape(value) ||
    contraction.test(value) ||
    // code spans written together ("`Path.read_text()`/`write_text()`"): the quotes of code, inside the value
    value.includes('`')
  )
}

/** Whether a value next to a secret word looks like a secret rather than a word, a number or a name. */
function looksSecret(value: string, afterPasswordWord: boolean): boolean {
  if (value.length < (afterPasswordWord ? 6 : 8) || value.length > 1000) return false
  if (!/[A-Za-z]/.test(value) || isOrdinary(value)) return false
  const classes = classesOf(value)
  if (value.length >= 16) return shannonEntropy(value) >= 3 && (/\d/.test(value) || classes >= 3)
  return classes >= 3 || (afterPasswordWord && classes >= 2 && /[^A-Za-z]/.test(value))
}

/** Whether "pass" at the end of `before`, followed by `next`, is the verb (see leadsVerbPass). */
function isVerbPass(before: string, next: string): boolean {
  const lead = /([\p{L}']+)\W*$/u.exec(before)?.[1]?.toLowerCase()
  return (lead === undefined || leadsVerbPass.has(lead)) && afterVerbPass.has(next.toLowerCase())
}

/** Secrets named by the words before them, sentence by sentence. */
export function findContextSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = []
  for (const line of text.split('\n')) {
    if (line.length > 10_000) continue
    const lower = line.toLowerCase()
    if (!/pass|pwd|secret|token|credential|key|bearer|auth|dsn/.test(lower)) continue
    for (const match of line.matchAll(secretWord)) {
      const start = match.index ?? 0
      // Part of a longer name (adr-0042-password-policy, DB_PASSWORD, /auth/tokens), not a word of the sentence.
      if (/[-_/.]$/.test(line.slice(0, start)) || /^[-_/.]\w/.test(line.slice(start + match[0].length))) continue
      const rest = line.slice(start + match[0].length)
      // An item of a list of words ("Realtime API, auth, models, ..."), not a secret's name.
      if (rest.startsWith(',')) continue
      const tokens = rest.split(/\s+/)
      if (/^pass$/i.test(match[0]) && isVerbPass(line.slice(0, start), tokens.find((token) => token !== '') ?? '')) continue
      const afterPasswordWord = passwordWord.test(match[0])
      let previous = match[0].toLowerCase()
      for (const token of tokens.slice(0, wordsAfter + 1)) {
        const value = bare(token)
        if (value !== '' && !identifierWords.has(previous) && looksSecret(value, afterPasswordWord)) {
          found.push({ ruleId: afterPasswordWord ? 'password-in-prose' : 'secret-in-prose', secret: value })
          break
        }
        if (/[.!?;]$/.test(token)) break
        if (value !== '') previous = value.toLowerCase()
      }
    }
  }
  return found
}
