import { z } from 'zod'
import { tiers } from '../define.js'

const jsonSchemaObject = z.record(z.string(), z.unknown())

export const manifestToolSchema = z.strictObject({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  tier: z.enum(tiers),
  risk: z.enum(['low', 'medium', 'high', 'critical']),
  idempotency: z.enum(['idempotent', 'not_idempotent']),
  timeout_ms: z.number().int(),
  input_schema: jsonSchemaObject,
  output_schema: jsonSchemaObject,
  error_schema: jsonSchemaObject,
  examples: z.array(z.strictObject({ title: z.string(), input: z.unknown(), output: z.unknown() })),
  constraints: z.strictObject({
    read_only_mode_supported: z.boolean(),
    side_effects: z.string(),
    notes: z.array(z.string()),
  }),
})

/** The interface-neutral description of every tool: SKILL.md and function schemas are rendered from it. */
export const manifestSchema = z.strictObject({
  manifest_version: z.literal('1.0'),
  project: z.strictObject({
    name: z.string(),
    version: z.string(),
    runtime: z.string(),
    execution_model: z.string(),
    entrypoint: z.string(),
    description: z.string(),
  }),
  tools: z.array(manifestToolSchema),
})

export type ToolManifest = z.output<typeof manifestSchema>
export type ManifestTool = z.output<typeof manifestToolSchema>
