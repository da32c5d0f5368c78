import { z } from 'zod'
import { MkError } from '../../errors.js'
import { describeIssues } from '../../validation.js'
import type { AnyTool } from '../define.js'
import type { ManifestTool, ToolManifest } from './manifest-schema.js'

/**
 * An override file, `llm-tooling/overrides/<tool>.json` (seed 004): the hand edits of one
 * tool's manifest entry that survive regeneration. Only what describes the tool may be
 * changed; what mk enforces (tier, risk, schemas, timeout, rate limit, allowed paths) comes
 * from the registry alone, so the manifest can never promise what the hosts do not do.
 */
export const toolOverrideSchema = z.strictObject({
  title: z.string().min(1).max(200).optional().describe('Replaces the title'),
  description: z.string().min(1).max(4000).optional().describe('Replaces the description a model reads'),
  examples: z
    .array(z.strictObject({ title: z.string().min(1), input: z.unknown(), output: z.unknown() }))
    .optional()
    .describe("Added after the registry's examples; each input and output must match the tool's schemas"),
  constraints: z.strictObject({ notes: z.array(z.string().min(1)).optional().describe('Added after the generated notes') }).optional(),
})

export type ToolOverride = z.output<typeof toolOverrideSchema>

/** The tool an override file is for: its name without `.json`. */
export function overrideToolName(fileName: string): string {
  return fileName.replace(/\.json$/, '')
}

/** One override file's text, read strictly: a field it may not set, or a wrong value, is an error naming the file and each field. */
export function parseOverride(fileName: string, text: string): ToolOverride {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new MkError('INVALID_INPUT', `overrides/${fileName} is not JSON: ${(error as Error).message}`, { details: { file: `overrides/${fileName}` } })
  }
  const parsed = toolOverrideSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const problems = describeIssues(parsed.error.issues, raw)
  throw new MkError('INVALID_INPUT', `overrides/${fileName}: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`, {
    details: {
      file: `overrides/${fileName}`,
      problems,
      hint: 'an override may set title, description, examples and constraints.notes; the rest comes from the tool registry',
    },
  })
}

function checkedExample(tool: AnyTool, fileName: string, example: NonNullable<ToolOverride['examples']>[number], index: number): void {
  for (const [side, schema, value] of [
    ['input', tool.input, example.input],
    ['output', tool.output, example.output],
  ] as const) {
    const parsed = schema.safeParse(value)
    if (parsed.success) continue
    const problems = describeIssues(parsed.error.issues, value)
    throw new MkError(
      'INVALID_INPUT',
      `overrides/${fileName}: examples[${index}].${side} does not match ${tool.name}'s ${side} schema: ${problems[0]?.message ?? 'invalid'}`,
      {
        details: { file: `overrides/${fileName}`, problems },
      },
    )
  }
}

function overridden(entry: ManifestTool, override: ToolOverride): ManifestTool {
  return {
    ...entry,
    ...(override.title === undefined ? {} : { title: override.title }),
    ...(override.description === undefined ? {} : { description: override.description }),
    examples: [...entry.examples, ...(override.examples ?? [])],
    constraints: { ...entry.constraints, notes: [...entry.constraints.notes, ...(override.constraints?.notes ?? [])] },
  }
}

/** The manifest with each override file applied to its tool; a file naming no registered tool is an error. */
export function applyOverrides(manifest: ToolManifest, overrides: ReadonlyMap<string, ToolOverride>, tools: readonly AnyTool[]): ToolManifest {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  for (const [fileName, override] of overrides) {
    const tool = byName.get(overrideToolName(fileName))
    if (tool === undefined || !manifest.tools.some((entry) => entry.name === tool.name)) {
      throw new MkError('NOT_FOUND', `overrides/${fileName}: no tool named "${overrideToolName(fileName)}"`, {
        details: { file: `overrides/${fileName}`, hint: 'name the file after the tool it changes: overrides/<tool>.json' },
      })
    }
    override.examples?.forEach((example, index) => checkedExample(tool, fileName, example, index))
  }
  return {
    ...manifest,
    tools: manifest.tools.map((entry) => {
      const override = overrides.get(`${entry.name}.json`)
      return override === undefined ? entry : overridden(entry, override)
    }),
  }
}
