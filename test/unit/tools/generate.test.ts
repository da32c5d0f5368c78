import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../../../src/tools/define.js'
import { inputJsonSchema } from '../../../src/tools/generate/json-schema.js'
import { buildManifest } from '../../../src/tools/generate/manifest.js'
import { describeType, summarizeFields } from '../../../src/tools/generate/schema-summary.js'
import { renderSkill } from '../../../src/tools/generate/skill.js'
import { oneOrMany } from '../../../src/tools/knowledge/schemas.js'

const remember = defineTool({
  name: 'test_remember',
  title: 'Remember a fact',
  description: "Stores one short fact. Quotes in inputs (it's) must survive the shell form.",
  tier: 'workspace',
  idempotent: false,
  timeoutMs: 5000,
  input: z.strictObject({
    content: z.string().min(1).describe('The fact'),
    tags: oneOrMany(z.string()).optional(),
    layer: z.enum(['user', 'project']).default('project'),
  }),
  output: z.strictObject({ id: z.string() }),
  examples: [{ title: 'a preference', input: { content: "user's editor is vim" }, output: { id: 'mem_01' } }],
  run: () => Promise.resolve({ output: { id: 'mem_01' }, display: 'stored' }),
})

const pkg = { name: 'mk', version: '9.9.9', description: 'Test build', engines: { node: '>=20' }, bin: { mk: './bin/run.js' } }

describe('schema summaries', () => {
  it('reads fields, requiredness, defaults and one-or-many unions', () => {
    expect(summarizeFields(inputJsonSchema(remember))).toEqual([
      { name: 'content', type: 'string', required: true, description: 'The fact.' },
      { name: 'tags', type: 'string, or an array of them', required: false, description: '' },
      { name: 'layer', type: '"user" | "project"', required: false, description: 'Default: `"project"`.' },
    ])
  })

  it('names the keys of nested objects, marking optional ones', () => {
    expect(describeType({ type: 'object', properties: { a: {}, b: {} }, required: ['a'] })).toBe('object {a, b?}')
  })
})

describe('the manifest and SKILL.md', () => {
  const manifest = buildManifest([remember], pkg)

  it('carries risk, idempotency, timeout and side effects from the tier', () => {
    expect(manifest.tools[0]).toMatchObject({
      risk: 'medium',
      idempotency: 'non-idempotent',
      timeout_ms: 5000,
      constraints: { read_only_mode_supported: false, rate_limit: { requests_per_minute: 240 }, allowed_paths: ['<workspace>/**', '<MK_HOME>/**'] },
    })
    expect(manifest.project).toMatchObject({
      name: 'mk',
      version: '9.9.9',
      runtime: 'node',
      runtime_version: '>=20',
      execution_model: 'subprocess',
      entrypoint: 'mk',
    })
  })

  it('quotes example inputs so the CLI form can be pasted into a shell', () => {
    expect(renderSkill(manifest)).toContain(`mk tools call test_remember --input '{"content":"user'\\''s editor is vim"}' --json`)
  })
})
