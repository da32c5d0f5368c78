import { describe, expect, it } from 'vitest'
import { hookInstall } from '../../../src/tools/hook/install.js'
import { knowledgeCheck } from '../../../src/tools/knowledge/check.js'
import { knowledgeUpdateBaseline } from '../../../src/tools/knowledge/update-baseline.js'

describe('check tools', () => {
  it.each([knowledgeCheck, knowledgeUpdateBaseline, hookInstall])('$name examples match its schemas', (tool) => {
    expect(tool.examples.length).toBeGreaterThan(0)
    for (const example of tool.examples) {
      expect(tool.input.safeParse(example.input).success).toBe(true)
      expect(tool.output.safeParse(example.output).success).toBe(true)
    }
  })

  it('is read-only for checks and workspace-tier for writes', () => {
    expect(knowledgeCheck.tier).toBe('read_only')
    expect(knowledgeUpdateBaseline.tier).toBe('workspace')
    expect(hookInstall.tier).toBe('workspace')
  })
})
