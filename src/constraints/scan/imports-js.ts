import type { ImportSite } from './import-site.js'

/**
 * Module specifiers of ES `import`, `export ... from`, `import()` and
 * `require()` in JavaScript and TypeScript. A small lexer skips comments,
 * strings, template literals and regular expression literals, so text that
 * merely mentions a module does not count.
 */

const enum State {
  Idle,
  AfterImport,
  AfterExport,
  AfterExportType,
  /** Inside `import x, { a as b }` or `export * as ns`, waiting for `from`. */
  Clause,
  /** After the `}` of a clause: only `from` continues it. */
  ClauseClosed,
  AfterFrom,
  AfterRequire,
  CallParen,
}

/** After these words a `/` starts a regular expression, not a division. */
const regexAfterWords: ReadonlySet<string> = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
])

/** The words the lexer acts on, by length. */
const wordsOfInterest: string[][] = []
for (const word of ['import', 'export', 'require', 'from', 'type', ...regexAfterWords]) (wordsOfInterest[word.length] ??= []).push(word)

/** The identifier at [start, end) when the lexer acts on it, else ''. Other identifiers (most) are never cut out of the text. */
function wordOfInterest(text: string, start: number, end: number): string {
  for (const word of wordsOfInterest[end - start] ?? []) if (text.startsWith(word, start)) return word
  return ''
}

const statementWords: ReadonlySet<string> = new Set(['import', 'export', 'require'])

const code = {
  tab: 9,
  newline: 10,
  carriageReturn: 13,
  space: 32,
  doubleQuote: 34,
  dollar: 36,
  singleQuote: 39,
  openParen: 40,
  closeParen: 41,
  star: 42,
  comma: 44,
  dot: 46,
  slash: 47,
  zero: 48,
  nine: 57,
  backslash: 92,
  openBracket: 91,
  closeBracket: 93,
  underscore: 95,
  backtick: 96,
  openBrace: 123,
  closeBrace: 125,
  hash: 35,
}

function isIdentifierStart(char: number): boolean {
  return (char >= 97 && char <= 122) || (char >= 65 && char <= 90) || char === code.dollar || char === code.underscore || char === code.hash || char > 127
}

function isIdentifierPart(char: number): boolean {
  return isIdentifierStart(char) || (char >= code.zero && char <= code.nine)
}

class ImportRecognizer {
  readonly sites: ImportSite[] = []
  private state = State.Idle
  private keywordOffset = 0
  private afterDot = false

  word(word: string, offset: number): void {
    const afterDot = this.afterDot
    this.afterDot = false
    if (!statementWords.has(word)) {
      switch (this.state) {
        case State.AfterImport:
        case State.Clause:
          this.state = word === 'from' ? State.AfterFrom : State.Clause
          return
        case State.AfterFrom:
          // `import { from } from 'x'` and `import from from 'x'`: `from` was a name.
          this.state = word === 'from' ? State.AfterFrom : State.Clause
          return
        case State.ClauseClosed:
          this.state = word === 'from' ? State.AfterFrom : State.Idle
          return
        case State.AfterExport:
          this.state = word === 'type' ? State.AfterExportType : State.Idle
          return
        default:
          this.state = State.Idle
          return
      }
    }
    this.state = State.Idle
    if (afterDot) return
    if (word === 'import') this.start(State.AfterImport, offset)
    else if (word === 'export') this.start(State.AfterExport, offset)
    else this.start(State.AfterRequire, offset)
  }

  punctuation(char: number): void {
    this.afterDot = char === code.dot
    switch (this.state) {
      case State.AfterImport:
        this.state = char === code.openParen ? State.CallParen : char === code.openBrace || char === code.star ? State.Clause : State.Idle
        return
      case State.AfterExport:
      case State.AfterExportType:
        this.state = char === code.openBrace || char === code.star ? State.Clause : State.Idle
        return
      case State.Clause:
      case State.AfterFrom:
        this.state =
          char === code.closeBrace ? State.ClauseClosed : char === code.openBrace || char === code.comma || char === code.star ? State.Clause : State.Idle
        return
      case State.AfterRequire:
        this.state = char === code.openParen ? State.CallParen : State.Idle
        return
      default:
        this.state = State.Idle
    }
  }

  string(value: string): void {
    this.afterDot = false
    if (this.state === State.AfterImport || this.state === State.AfterFrom || this.state === State.CallParen) {
      this.sites.push({ specifier: value, offset: this.keywordOffset })
    }
    this.state = State.Idle
  }

  get idle(): boolean {
    return this.state === State.Idle
  }

  private start(state: State, offset: number): void {
    this.state = state
    this.keywordOffset = offset
  }
}

/**
 * Every import starts with one of these words (an `export` that declares a
 * function, class or variable cannot re-export a module). Lexing stops after
 * the last of them, which skips most of a typical file.
 */
const importWord = /\bimport\b|\brequire\b|\bexport\b(?!\s+(?:function|class|const|let|var|default|async|interface|enum|abstract|declare|namespace)\b)/g

function endOfLastImportWord(text: string): number {
  let end = -1
  importWord.lastIndex = 0
  for (let match = importWord.exec(text); match !== null; match = importWord.exec(text)) end = match.index + match[0].length
  return end
}

export function findJsImports(text: string): ImportSite[] {
  const lastWordEnd = endOfLastImportWord(text)
  if (lastWordEnd === -1) return []
  const recognizer = new ImportRecognizer()
  const length = text.length
  /** One entry per open `{`: true when it opened a template literal substitution `${`. */
  const braces: boolean[] = []
  let regexAllowed = true
  let index = text.startsWith('#!') ? text.indexOf('\n') : 0
  if (index === -1) return []

  /** Scan a template literal from after its opening backtick (or a closing `}` of a substitution). */
  const scanTemplate = (from: number): number => {
    let position = from
    const start = from
    while (position < length) {
      const char = text.charCodeAt(position)
      if (char === code.backslash) {
        position += 2
      } else if (char === code.backtick) {
        // A template without substitutions is a plain string: `require(\`x\`)`.
        recognizer.string(text.slice(start, position))
        return position + 1
      } else if (char === code.dollar && text.charCodeAt(position + 1) === code.openBrace) {
        braces.push(true)
        recognizer.punctuation(code.openBrace)
        return position + 2
      } else {
        position++
      }
    }
    return position
  }

  while (index < length && !(index > lastWordEnd && recognizer.idle)) {
    const char = text.charCodeAt(index)
    if (char === code.space || char === code.tab || char === code.newline || char === code.carriageReturn) {
      index++
    } else if (char === code.slash) {
      const next = text.charCodeAt(index + 1)
      if (next === code.slash) {
        const end = text.indexOf('\n', index)
        index = end === -1 ? length : end
      } else if (next === code.star) {
        const end = text.indexOf('*/', index + 2)
        index = end === -1 ? length : end + 2
      } else if (regexAllowed) {
        index = skipRegex(text, index + 1)
        recognizer.punctuation(code.slash)
        regexAllowed = false
      } else {
        recognizer.punctuation(char)
        regexAllowed = true
        index++
      }
    } else if (char === code.singleQuote || char === code.doubleQuote) {
      const start = index + 1
      let position = start
      for (; position < length; position++) {
        const current = text.charCodeAt(position)
        if (current === code.backslash) position++
        else if (current === char || current === code.newline) break
      }
      if (text.charCodeAt(position) === char) recognizer.string(text.slice(start, position))
      else recognizer.punctuation(code.newline)
      index = position + 1
      regexAllowed = false
    } else if (char === code.backtick) {
      index = scanTemplate(index + 1)
      regexAllowed = false
    } else if (isIdentifierStart(char)) {
      const start = index
      index++
      while (index < length && isIdentifierPart(text.charCodeAt(index))) index++
      const word = wordOfInterest(text, start, index)
      recognizer.word(word, start)
      regexAllowed = regexAfterWords.has(word)
    } else if (char >= code.zero && char <= code.nine) {
      index++
      while (index < length && (isIdentifierPart(text.charCodeAt(index)) || text.charCodeAt(index) === code.dot)) index++
      recognizer.punctuation(code.zero)
      regexAllowed = false
    } else if (char === code.openBrace) {
      braces.push(false)
      recognizer.punctuation(char)
      regexAllowed = true
      index++
    } else if (char === code.closeBrace) {
      if (braces.pop() === true) {
        index = scanTemplate(index + 1)
        regexAllowed = false
      } else {
        recognizer.punctuation(char)
        regexAllowed = false
        index++
      }
    } else {
      recognizer.punctuation(char)
      regexAllowed = char !== code.closeParen && char !== code.closeBracket
      index++
    }
  }
  return recognizer.sites
}

/** Skip a regular expression literal body from after its opening `/`; a `/` inside a class does not end it. */
function skipRegex(text: string, from: number): number {
  let inClass = false
  for (let position = from; position < text.length; position++) {
    const char = text.charCodeAt(position)
    if (char === code.backslash) position++
    else if (char === code.newline) return position
    else if (char === code.openBracket) inClass = true
    else if (char === code.closeBracket) inClass = false
    else if (char === code.slash && !inClass) {
      let end = position + 1
      while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end++
      return end
    }
  }
  return text.length
}
