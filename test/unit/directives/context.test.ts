import { describe, expect, it } from 'vitest'
import { buildVocabulary, detectContext, pathLanguages, pathWords, topicsOf } from '../../../src/directives/context.js'
import { matchTerms, pathsIn } from '../../../src/directives/terms.js'
import { stem } from '../../../src/words.js'

const vocabulary = buildVocabulary({
  topics: { billing: ['invoice', 'ledger', 'src/billing/**'] },
  layers: { persistence: ['warehouse'] },
  knowledgeTopics: ['pii'],
})

describe('detectContext', () => {
  it('finds the topics and layers of a persistence task', () => {
    const context = detectContext('add a new endpoint that stores customer addresses in Postgres', vocabulary)
    expect(context.detectedLayer).toBe('persistence')
    expect(context.layers).toEqual(['persistence', 'application'])
    expect(context.topics).toEqual(expect.arrayContaining(['persistence', 'privacy', 'api']))
    expect(context.topics).not.toContain('frontend')
    expect(context.keywords).toEqual(['addresses', 'endpoint', 'customer', 'postgres', 'stores'])
    expect(context.confidence).toBeGreaterThan(0.9)
  })

  it('adds the organisation vocabulary, path globs and the knowledge topics', () => {
    const context = detectContext('fix rounding in src/billing/ledger.ts and keep the PII out of the warehouse', vocabulary)
    expect(context.topics[0]).toBe('billing')
    expect(context.topics).toContain('pii')
    expect(context.detectedLayer).toBe('persistence')
    expect(context.paths).toContain('src/billing/ledger.ts')
  })

  it('lets the mode tip the layer: an architect thinks of the domain first', () => {
    expect(detectContext('rename the order service', vocabulary).detectedLayer).toBe('application')
    expect(detectContext('rename the order service', vocabulary, 'architect').detectedLayer).toBe('domain')
    expect(detectContext('why does checkout hang', vocabulary, 'debug').topics).toEqual(expect.arrayContaining(['errors', 'observability']))
  })

  it('detects nothing in text without vocabulary words, with zero confidence', () => {
    const context = detectContext('qwzx blorft', vocabulary)
    expect(context).toMatchObject({ detectedLayer: undefined, layers: [], topics: [], confidence: 0 })
  })

  it('reads a phrase as one term, so "pull request" is not an API request', () => {
    expect(topicsOf('Never merge your own pull request', vocabulary)).toEqual(['git'])
    expect(matchTerms('validate user input twice', vocabulary.topicsByTerm)).toEqual(['validate', 'user input'])
  })
})

describe('terms', () => {
  it('stems plurals the same way on both sides', () => {
    expect(['addresses', 'policies', 'tables', 'status', 'class'].map(stem)).toEqual(['address', 'policy', 'table', 'status', 'class'])
  })
  it('finds paths and file names', () => {
    expect(pathsIn('edit db/migrations/001.sql and README.md, not e.g. this')).toEqual(['db/migrations/001.sql', 'README.md'])
  })
})

describe('pathWords and pathLanguages', () => {
  it('reads the words of a path without the folders every project has, and the language its extension names', () => {
    expect(pathWords(['frontend/src/lib/components/InsightLegend/InsightLegend.tsx'])).toEqual(['frontend', 'insight', 'legend', 'insight', 'legend'])
    expect(pathWords(['apps/web/src/components/Sidebar.tsx', 'frontend/src/lib/api.ts'])).toEqual(['sidebar', 'frontend'])
    expect(pathWords(['posthog/api/test/test_cohort.py'])).toEqual(['posthog', 'cohort'])
    expect(pathLanguages(['a/b.tsx', 'c.py', 'README'])).toEqual(['typescript', 'react', 'python'])
  })
})
