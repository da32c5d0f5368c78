import { describe, expect, it } from 'vitest'
import type { AnyTool } from '../../../src/tools/define.js'
import { indexRebuild } from '../../../src/tools/index/rebuild.js'
import { indexStatus } from '../../../src/tools/index/status.js'
import { indexUpdate } from '../../../src/tools/index/update.js'
import { knowledgeQuery } from '../../../src/tools/knowledge/query.js'
import { memoryAdd } from '../../../src/tools/memory/add.js'
import { memoryDelete } from '../../../src/tools/memory/delete.js'
import { memoryList } from '../../../src/tools/memory/list.js'
import { memoryRestore } from '../../../src/tools/memory/restore.js'
import { memorySearch } from '../../../src/tools/memory/search.js'
import { memoryShow } from '../../../src/tools/memory/show.js'
import { tools } from '../../../src/tools/registry.js'

const memoryAndIndexTools: AnyTool[] = [
  memoryAdd,
  memorySearch,
  memoryList,
  memoryShow,
  memoryDelete,
  memoryRestore,
  indexStatus,
  indexUpdate,
  indexRebuild,
  knowledgeQuery,
]

describe.each(memoryAndIndexTools.map((tool) => [tool.name, tool] as const))('%s', (name, tool) => {
  it('is registered, snake_case, and its examples are valid against its schemas', () => {
    expect(tools).toContain(tool)
    expect(name).toMatch(/^[a-z]+(_[a-z]+)+$/)
    expect(tool.examples.length).toBeGreaterThan(0)
    for (const example of tool.examples) {
      expect(tool.input.safeParse(example.input).error?.issues).toBeUndefined()
      expect(tool.output.safeParse(example.output).error?.issues).toBeUndefined()
    }
  })
})

describe('memory tool inputs', () => {
  it.each([
    { tool: memoryAdd, input: { content: '' }, field: 'content' },
    { tool: memoryAdd, input: { content: 'x'.repeat(10_001) }, field: 'content' },
    { tool: memoryAdd, input: { content: 'fact', layer: 'galaxy' }, field: 'layer' },
    { tool: memoryAdd, input: { content: 'fact', expires: 'next tuesday-ish' }, field: 'expires' },
    { tool: memoryAdd, input: { content: 'fact', expires: '2020-01-01' }, field: 'expires' }, // issue 11: an expiry in the past
    { tool: memorySearch, input: { query: 'x', limit: 0 }, field: 'limit' },
    { tool: memorySearch, input: { query: 'x', limit: 1000 }, field: 'limit' },
    { tool: memorySearch, input: { query: 'x', threshold: 2 }, field: 'threshold' },
    { tool: memorySearch, input: { query: ' ' }, field: 'query' },
    { tool: memoryList, input: { limit: 1001 }, field: 'limit' },
  ] as { tool: AnyTool; input: Record<string, unknown>; field: string }[])('rejects a bad $field: $input', ({ tool, input, field }) => {
    const parsed = tool.input.safeParse(input)
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.path).toEqual([field])
  })
})
