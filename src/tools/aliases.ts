import { MkError } from '../errors.js'

/**
 * A field a specification names differently (seeds 000-004: `query` for mk's `text`,
 * `includeHistory` for `history`): the value under either name; both with different values is
 * an input error naming both.
 */
export function aliased<T>(name: string, alias: string, value: T | undefined, aliasValue: T | undefined): T | undefined {
  if (value !== undefined && aliasValue !== undefined && JSON.stringify(value) !== JSON.stringify(aliasValue)) {
    throw new MkError('INVALID_INPUT', `${name} and ${alias} name the same field (${alias} is the specification's name): give one of them`, {
      details: {
        field: alias,
        problems: [{ path: alias, expected: `the same value as ${name}, or nothing`, received: 'a different value', message: `${alias}: an alias of ${name}` }],
      },
    })
  }
  return value ?? aliasValue
}
