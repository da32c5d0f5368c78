import { compilePatternSet } from './regex.js'
import { requiredLiterals, type RequiredLiterals } from './required-literals.js'

/**
 * Which code patterns may occur in a text. A pattern with required literals is
 * ruled out by `includes` when the text contains none of them; the patterns
 * without any share one RE2Set pass. "May" because a literal can be present
 * without a match: the caller still locates matches with the pattern itself.
 */
export function compileCodeSearch(patterns: readonly string[]): (text: string) => ReadonlySet<number> {
  const literals = patterns.map((pattern) => requiredLiterals(pattern))
  const withLiterals: { index: number; literals: RequiredLiterals }[] = []
  const withoutLiterals: number[] = []
  literals.forEach((found, index) => {
    if (found === undefined) withoutLiterals.push(index)
    else withLiterals.push({ index, literals: found })
  })
  const searchRest = compilePatternSet(withoutLiterals.map((index) => patterns[index] as string))
  return (text) => {
    const occurring = new Set<number>()
    let lowered: string | undefined
    for (const { index, literals: { anyOf, lowerCase } } of withLiterals) {
      const haystack = lowerCase ? (lowered ??= text.toLowerCase()) : text
      if (anyOf.some((literal) => haystack.includes(literal))) occurring.add(index)
    }
    if (withoutLiterals.length > 0) for (const found of searchRest(text)) occurring.add(withoutLiterals[found] as number)
    return occurring
  }
}
