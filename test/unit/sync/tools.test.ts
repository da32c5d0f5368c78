import { describe, expect, test } from 'vitest'
import type { AnyTool } from '../../../src/tools/define.js'
import { doctorCheck } from '../../../src/tools/doctor/check.js'
import { syncNow } from '../../../src/tools/sync/now.js'
import { syncStatusTool } from '../../../src/tools/sync/status.js'

const tools: AnyTool[] = [syncNow, syncStatusTool, doctorCheck]

describe.each(tools.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  test('every example is valid against the schemas', () => {
    expect(tool.examples.length).toBeGreaterThan(0)
    for (const example of tool.examples) {
      expect(tool.input.safeParse(example.input).success).toBe(true)
      expect(tool.output.safeParse(example.output).error).toBeUndefined()
    }
  })

  test('unknown input keys are refused', () => {
    expect(tool.input.safeParse({ nope: true }).success).toBe(false)
  })
})
