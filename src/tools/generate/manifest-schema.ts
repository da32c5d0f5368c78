import { z } from 'zod'
import { tiers } from '../define.js'

const jsonSchemaObject = z.record(z.string(), z.unknown())

export const manifestToolSchema = z.strictObject({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  tier: z.enum(tiers),
  risk: z.enum(['low', 'medium', 'high']),
  idempotency: z.enum(['idempotent', 'non-idempotent', 'unknown']),
  timeout_ms: z.number().int(),
  input_schema: jsonSchemaObject,
  output_schema: jsonSchemaObject,
  error_schema: jsonSchemaObject,
  examples: z.array(z.strictObject({ title: z.string(), input: z.unknown(), output: z.unknown() })),
  constraints: z.strictObject({
    read_only_mode_supported: z.boolean(),
    side_effects: z.array(z.string()),
    rate_limit: z.strictObject({ requests_per_minute: z.number().int().positive() }),
    allowed_paths: z.array(z.string()),
    notes: z.array(z.string()),
  }),
})

/** The interface-neutral description (seed 004's tool manifest, its enums spelled as the seed writes them) of every tool: SKILL.md and function schemas are rendered from it. */
export const manifestSchema = z.strictObject({
  manifest_version: z.literal('1.0'),
  project: z.strictObject({
    name: z.string(),
    version: z.string(),
    runtime: z.enum(['node', 'python', 'go', 'rust', 'other']),
    /** The runtime's version range (package.json engines): seed 004's runtime is the bare enum. */
    runtime_version: z.string(),
    execution_model: z.enum(['in-process', 'subprocess', 'remote-http']),
    /** How the execution model is used: the CLI per call, the MCP server, the library, the team server. */
    execution_notes: z.string(),
    entrypoint: z.string(),
    description: z.string(),
  }),
  tools: z.array(manifestToolSchema),
})

export type ToolManifest = z.output<typeof manifestSchema>
export type ManifestTool = z.output<typeof manifestToolSchema>
