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
}

/** What is known about the strings a piece of a pattern matches. */
interface Facts {
  /** The piece matches exactly one of these strings; undefined when unknown or too many. */
  exact: string[] | undefined
  /** Every match of the piece contains one of these; undefined when nothing is known. */
  required: string[] | undefined
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
  return { exact: whole, required: best(candidates) }
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

class LiteralReader {
  private position = 0
  private readonly chars: string[]

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
      facts = { exact: undefined, required: best([atom.required, atom.exact]) }
    } else if (char === '?') {
      this.position++
      facts = { exact: atom.exact === undefined ? undefined : [...new Set(['', ...atom.exact])], required: undefined }
    } else if (char === '{') {
      const repeat = /^\{(\d+)(,\d*)?\}/u.exec(this.chars.slice(this.position).join(''))
      // RE2 reads a brace that is not a repetition as a literal; not worth modelling.
      if (repeat === null) throw new Unsupported()
      this.position += [...repeat[0]].length
      const min = Number(repeat[1])
      if (min === 0) facts = unknown
      else if (min === 1 && repeat[2] === undefined) facts = atom
      else facts = { exact: undefined, required: best([atom.required, atom.exact]) }
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
        this.skipClass()
        return unknown
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

  private skipClass(): void {
    if (this.peek() === '^') this.position++
    if (this.peek() === ']') this.position++
    for (let char = this.next(); char !== ']'; char = this.next()) {
      if (char === '\\') this.next()
      else if (char === '[' && this.peek() === ':') {
        this.position++
        while (!(this.next() === ':' && this.peek() === ']'));
        this.position++
      }
    }
  }

  private escape(): Facts {
    const char = this.next()
    if (punctuation.test(char)) return this.literal(char)
    if (classEscapes.has(char)) return unknown
    if (char === 'p' || char === 'P' || char === 'x') {
      if (this.peek() === '{') while (this.next() !== '}');
      else this.position += char === 'x' ? 2 : 1
      return unknown
    }
    throw new Unsupported()
  }
}

/** The literals every match of a (valid RE2) pattern contains, or undefined when none can be told. */
export function requiredLiterals(pattern: string): RequiredLiterals | undefined {
  // A flag group that turns on `i` anywhere lower-cases every literal: still a sound test for the case-sensitive parts.
  const lowerCase = /\(\?[a-zA-Z-]*i/u.test(pattern)
  try {
    const facts = new LiteralReader(pattern, lowerCase).read()
    const anyOf = best([facts.required, facts.exact])
    return anyOf === undefined ? undefined : { anyOf, lowerCase }
  } catch (error) {
    if (error instanceof Unsupported) return undefined
    throw error
  }
}
