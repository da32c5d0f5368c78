import { describe, expect, it } from 'vitest'
import { compoundWordParts, identifierParts } from '../../../src/search/identifier-parts.js'

describe('identifier parts', () => {
  it('splits camelCase and PascalCase words, keeping acronyms and numbers whole', () => {
    expect(identifierParts('userId')).toEqual(['user', 'id'])
    expect(identifierParts('parseJSONBody')).toEqual(['parse', 'json', 'body'])
    expect(identifierParts('HttpServer2')).toEqual(['http', 'server', '2'])
  })

  it('finds the compound words of a text and leaves plain words, snake_case and acronyms alone', () => {
    expect(compoundWordParts('Call getUserName from the OrderService, not user_name or HTTP')).toBe('get user name order service')
    expect(compoundWordParts('We store everything in Postgres 15')).toBe('')
  })
})
