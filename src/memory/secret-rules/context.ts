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
 * A name as code writes it (`extra`, `Connection`, `read_text`, `createAuth`, `AUTH_SECRET`): runs of two or more
 * lower-case letters after each capital, which random text seldom has.
 */
const identifier = String.raw`(?:[a-z]{2,}|[A-Z][a-z]{2,}|[A-Z][A-Z0-9_]+)(?:[A-Z][a-z]{2,}|_[a-z0-9]+|\d)*`
/**
 * Code named in a sentence: a dotted path (`Connection.extra`, `process.env.AUTH_SECRET`) or a call whose arguments
 * open as code's do (`createAuth({`, `field(repr=False)`, `os.environ.get("API_TOKEN")`, `Path.read_text()`), not as a
 * password's ("Summer(2024)").
 */
const codeShape = new RegExp(String.raw`^${identifier}(?:\.${identifier})+(?:\(\))?$|^${identifier}(?:\.${identifier})*\((?:\)|[{['"]|[a-z_]\w*[=,)])`)
/** Words joined by hyphens or slashes, each a word's shape: "CI-specific", "SDK/ChatGPT", "read/write". */
const joinedWords = /^(?:[A-Z]?[a-z]{2,}|[A-Z]{2,})+(?:[-/](?:[A-Z]?[a-z]{2,}|[A-Z]{2,})+)+$/
/** "doesn't", "it's", "we'll". */
const contraction = /^[A-Za-z]{2,}'[a-z]{1,2}$/
/** After "pass" the verb ("pass the whole dict", "they pass and check ..."), what follows is not a password. */
const afterVerbPass = new Set(
  'the a an this that these those its their your our all any every each it them and or to in on with through by as so if when only both'.split(' '),
)

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
    codeShape.test(value) ||
    joinedWords.test(value) ||
    contraction.test(value)
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
      const tokens = line.slice(start + match[0].length).split(/\s+/)
      if (/^pass(?:es)?$/i.test(match[0]) && afterVerbPass.has(tokens.find((token) => token !== '')?.toLowerCase() ?? '')) continue
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
