/**
 * Literal text that every match of a pattern contains, read from the pattern's
 * syntax: `TODO|FIXME` -> one of TODO, FIXME; `\bvar\s+\w+` -> var. A file that
 * contains none of them cannot match, which `String.prototype.includes` tells far
 * faster than any regular expression engine. The extraction is conservative:
 * whatever it does not fully understand yields no literal (the file is searched).
 */
export interface RequiredLiterals {
  /** Every match contains at least one of these (non-empty strings). */
  anyOf: readonly string[]
  /** Compare with the lower-cased text: the pattern folds case somewhere. */
  lowerCase: boolean
  /**
   * The pattern never anchors at the ends of the whole text (no `\A`, `\z`,
   * `(?-m)`): a match judged within its own line can then be found by searching
   * that line alone, and only lines that contain a literal can hold one.
   */
  lineLocal: boolean
}

/** Every match contains `min` consecutive characters from an ASCII class: `[A-Z0-9]{32,}`. */
export interface ClassRun {
  /** 1 at the code of each member (all below 128). */
  members: Uint8Array
  min: number
}

/** What is known about the strings a piece of a pattern matches. */
interface Facts {
  /** The piece matches exactly one of these strings; undefined when unknown or too many. */
  exact: string[] | undefined
  /** Every match of the piece contains one of these; undefined when nothing is known. */
  required: string[] | undefined
  run?: ClassRun | undefined
  /** The piece is one character class: a repetition multiplies its run. */
  singleClass?: boolean
}

const unknown: Facts = { exact: undefined, required: undefined }
const maxAlternatives = 16
const punctuation = /^[!-/:-@[-`{-~]$/u
const classEscapes = new Set(['d', 'D', 's', 'S', 'w', 'W', 'b', 'B', 'A', 'z', 'a', 'f', 't', 'n', 'r', 'v'])

class Unsupported extends Error {}

function cross(left: readonly string[], right: readonly string[]): string[] | undefined {
  if (left.length * right.length > maxAlternatives) return undefined
  return [...new Set(left.flatMap((prefix) => right.map((suffix) => prefix + suffix)))]
}

/** A set of alternatives is as selective as its shortest member. */
function score(anyOf: readonly string[]): number {
  return anyOf.reduce((shortest, literal) => Math.min(shortest, literal.length), Number.POSITIVE_INFINITY)
}

function best(candidates: readonly (string[] | undefined)[]): string[] | undefined {
  let chosen: string[] | undefined
  for (const candidate of candidates) {
    if (candidate === undefined || candidate.length === 0 || score(candidate) === 0) continue
    if (chosen === undefined || score(candidate) > score(chosen) || (score(candidate) === score(chosen) && candidate.length < chosen.length)) chosen = candidate
  }
  return chosen
}

function concatenate(items: readonly Facts[]): Facts {
  const candidates: (string[] | undefined)[] = []
  let run: string[] | undefined = ['']
  let whole: string[] | undefined = ['']
  for (const item of items) {
    whole = whole !== undefined && item.exact !== undefined ? cross(whole, item.exact) : undefined
    if (item.exact === undefined) {
      candidates.push(run, item.required)
      run = ['']
      continue
    }
    const extended = cross(run, item.exact)
    if (extended === undefined) {
      candidates.push(run)
      run = item.exact
    } else {
      run = extended
    }
  }
  candidates.push(run)
  const runs = items.flatMap((item) => (item.run === undefined ? [] : [item.run]))
  const longest = runs.reduce<ClassRun | undefined>((chosen, classRun) => (chosen === undefined || classRun.min > chosen.min ? classRun : chosen), undefined)
  return { exact: whole, required: best(candidates), run: longest }
}

function alternate(branches: readonly Facts[]): Facts {
  const exact = branches.every((branch) => branch.exact !== undefined) ? [...new Set(branches.flatMap((branch) => branch.exact ?? []))] : undefined
  const required = branches.map((branch) => best([branch.required, branch.exact]))
  const union = required.every((anyOf) => anyOf !== undefined) ? [...new Set(required.flatMap((anyOf) => anyOf ?? []))] : undefined
  return {
    exact: exact !== undefined && exact.length <= maxAlternatives ? exact : undefined,
    required: union !== undefined && union.length <= maxAlternatives ? union : undefined,
  }
}

function addRange(members: Uint8Array, low: string, high: string): void {
  for (let code = low.charCodeAt(0); code <= high.charCodeAt(0); code++) members[code] = 1
}

/** Members of a class body made only of printable ASCII characters, ranges, `\\d`, `\\w` and escaped punctuation; else undefined. */
function asciiMembers(body: readonly string[]): Uint8Array | undefined {
  const members = new Uint8Array(128)
  for (let index = 0; index < body.length; index++) {
    let char = body[index] as string
    if (char === '\\') {
      const escaped = body[++index] ?? ''
      if (escaped === 'd' || escaped === 'w') {
        addRange(members, '0', '9')
        if (escaped === 'w') {
          addRange(members, 'a', 'z')
          addRange(members, 'A', 'Z')
          members[0x5f] = 1
        }
        continue
      }
      if (!punctuation.test(escaped)) return undefined
      char = escaped
    } else if (char === '[' || char.length !== 1 || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) > 0x7e) {
      return undefined
    }
    const high = body[index + 2]
    if (body[index + 1] === '-' && high !== undefined) {
      if (high === '\\' || high.length !== 1 || high < char || high.charCodeAt(0) > 0x7e) return undefined
      addRange(members, char, high)
      index += 2
    } else {
      members[char.charCodeAt(0)] = 1
    }
  }
  return members
}

class LiteralReader {
  private position = 0
  private readonly chars: string[]
  /** Some atom anchors at the ends of the whole text. */
  anchorsText = false

  constructor(
    pattern: string,
    private readonly lowerCase: boolean,
  ) {
    this.chars = [...pattern]
  }

  read(): Facts {
    const facts = this.alternation()
    if (this.position !== this.chars.length) throw new Unsupported()
    return facts
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.position + offset]
  }

  private next(): string {
    const char = this.chars[this.position++]
    if (char === undefined) throw new Unsupported()
    return char
  }

  private alternation(): Facts {
    const branches = [this.concatenation()]
    while (this.peek() === '|') {
      this.position++
      branches.push(this.concatenation())
    }
    return branches.length === 1 ? (branches[0] as Facts) : alternate(branches)
  }

  private concatenation(): Facts {
    const items: Facts[] = []
    for (let char = this.peek(); char !== undefined && char !== '|' && char !== ')'; char = this.peek()) {
      items.push(this.quantified(this.atom()))
    }
    return concatenate(items)
  }

  private quantified(atom: Facts): Facts {
    const char = this.peek()
    let facts: Facts
    if (char === '*') {
      this.position++
      facts = unknown
    } else if (char === '+') {
      this.position++
      facts = { exact: undefined, required: best([atom.required, atom.exact]), run: atom.run }
    } else if (char === '?') {
      this.position++
      facts = { exact: atom.exact === undefined ? undefined : [...new Set(['', ...atom.exact])], required: undefined }
    } else if (char === '{') {
      // `{1000,1000}` is the longest repetition RE2 accepts: a short window keeps reading linear.
      const repeat = /^\{(\d+)(,\d*)?\}/u.exec(this.chars.slice(this.position, this.position + 16).join(''))
      // RE2 reads a brace that is not a repetition as a literal; not worth modelling.
      if (repeat === null) throw new Unsupported()
      this.position += [...repeat[0]].length
      const min = Number(repeat[1])
      if (min === 0) facts = unknown
      else if (min === 1 && repeat[2] === undefined) facts = atom
      else {
        const run = atom.run === undefined ? undefined : { members: atom.run.members, min: atom.singleClass === true ? min : atom.run.min }
        facts = { exact: undefined, required: best([atom.required, atom.exact]), run }
      }
    } else {
      return atom
    }
    if (this.peek() === '?') this.position++
    if (this.peek() !== undefined && '*+?{'.includes(this.peek() as string)) throw new Unsupported()
    return facts
  }

  private atom(): Facts {
    const char = this.next()
    switch (char) {
      case '(':
        return this.group()
      case '[':
        return this.characterClass()
      case '\\':
        return this.escape()
      case '.':
      case '^':
      case '$':
        return unknown
      case '*':
      case '+':
      case '?':
      case '{':
        throw new Unsupported()
      default:
        return this.literal(char)
    }
  }

  private literal(char: string): Facts {
    if (!this.lowerCase) return { exact: [char], required: undefined }
    // Under case folding only ASCII survives toLowerCase intact; `s` also folds to U+017F, which lower-cases to itself.
    if (char.length !== 1 || char.charCodeAt(0) > 0x7f || char === 's' || char === 'S') return unknown
    return { exact: [char.toLowerCase()], required: undefined }
  }

  private group(): Facts {
    if (this.peek() === '?') {
      this.position++
      if (this.peek() === 'P' || this.peek() === '<') {
        while (this.next() !== '>');
      } else {
        let flag = this.next()
        while (/^[imsU-]$/u.test(flag)) flag = this.next()
        if (flag === ')') return { exact: [''], required: undefined }
        if (flag !== ':') throw new Unsupported()
      }
    }
    const inner = this.alternation()
    if (this.next() !== ')') throw new Unsupported()
    return inner
  }

  private characterClass(): Facts {
    const negated = this.peek() === '^'
    if (negated) this.position++
    const body: string[] = []
    if (this.peek() === ']') body.push(this.next())
    for (let char = this.next(); char !== ']'; char = this.next()) {
      body.push(char)
      if (char === '\\') body.push(this.next())
      else if (char === '[' && this.peek() === ':') {
        this.position++
        while (!(this.next() === ':' && this.peek() === ']'));
        this.position++
      }
    }
    const members = negated || this.lowerCase ? undefined : asciiMembers(body)
    return members === undefined ? unknown : { exact: undefined, required: undefined, run: { members, min: 1 }, singleClass: true }
  }

  private escape(): Facts {
    const char = this.next()
    if (punctuation.test(char)) return this.literal(char)
    if (classEscapes.has(char)) {
      if (char === 'A' || char === 'z') this.anchorsText = true
      const members = char === 'd' || char === 'w' ? asciiMembers(['\\', char]) : undefined
      return members === undefined ? unknown : { exact: undefined, required: undefined, run: { members, min: 1 }, singleClass: true }
    }
    if (char === 'p' || char === 'P' || char === 'x') {
      if (this.peek() === '{') while (this.next() !== '}');
      else this.position += char === 'x' ? 2 : 1
      return unknown
    }
    throw new Unsupported()
  }
}

function readFacts(pattern: string, lowerCase: boolean): { facts: Facts; anchorsText: boolean } | undefined {
  try {
    const reader = new LiteralReader(pattern, lowerCase)
    return { facts: reader.read(), anchorsText: reader.anchorsText }
  } catch (error) {
    // RangeError: groups nested deeper than the call stack; no literal then, as for any syntax not modelled.
    if (error instanceof Unsupported || error instanceof RangeError) return undefined
    throw error
  }
}

/** The longest run of class members every match of a (valid RE2) pattern contains, when at least two. */
export function requiredRun(pattern: string): ClassRun | undefined {
  if (/\(\?[a-zA-Z-]*i/u.test(pattern)) return undefined
  const run = readFacts(pattern, false)?.facts.run
  return run !== undefined && run.min >= 2 ? run : undefined
}

/** The literals every match of a (valid RE2) pattern contains, or undefined when none can be told. */
export function requiredLiterals(pattern: string): RequiredLiterals | undefined {
  // A flag group that turns on `i` anywhere lower-cases every literal: still a sound test for the case-sensitive parts.
  const lowerCase = /\(\?[a-zA-Z-]*i/u.test(pattern)
  // `m` switched off makes `^` and `$` anchor at the ends of the text.
  const flagsAnchorText = /\(\?[a-zA-Z-]*m/u.test(pattern)
  const read = readFacts(pattern, lowerCase)
  const anyOf = read === undefined ? undefined : best([read.facts.required, read.facts.exact])
  return read === undefined || anyOf === undefined ? undefined : { anyOf, lowerCase, lineLocal: !read.anchorsText && !flagsAnchorText }
}

/**
 * The strings a (valid RE2) pattern matches when it is nothing but literal text and alternatives of
 * it (`console\.log\(`, `TODO|FIXME`): its matches are then the occurrences of those strings, which
 * `indexOf` finds without a regular expression engine. Undefined when any part is not plain
 * literal text, the pattern folds case, a string is empty or spans lines, or one string begins
 * another (which one RE2 takes would depend on the order of the alternatives).
 */
export function exactLiterals(pattern: string): readonly string[] | undefined {
  if (/\(\?[a-zA-Z-]*i/u.test(pattern)) return undefined
  const exact = readFacts(pattern, false)?.facts.exact
  if (exact === undefined || exact.length === 0) return undefined
  const plain = exact.every((literal) => literal !== '' && !literal.includes('\n') && !exact.some((other) => other !== literal && other.startsWith(literal)))
  return plain ? exact : undefined
}
