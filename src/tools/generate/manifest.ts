import type { AnyTool } from '../define.js'
import { timeoutOf } from '../dispatcher.js'
import { errorJsonSchema, inputJsonSchema, outputJsonSchema } from './json-schema.js'
import type { ManifestTool, ToolManifest } from './manifest-schema.js'
import type { PackageInfo } from './project.js'
import { allowedPaths } from '../path-access.js'
import { toolRateLimit } from '../rate-limits.js'
import { tierPolicies } from './tier-policy.js'

function notesFor(tool: AnyTool): string[] {
  const policy = tierPolicies[tool.tier]
  const notes: string[] = []
  if (!policy.availableReadOnly) {
    notes.push('Refused with FORBIDDEN when MK_READ_ONLY or READ_ONLY is set (mk mcp --read-only); not offered by mk mcp --profile worker.')
  }
  if (policy.needsApproval) {
    notes.push('Asks a person first: MCP elicitation when the client supports it, a prompt on a terminal, or --yes; otherwise FORBIDDEN.')
  }
  if (tool.idempotent) notes.push('Safe to retry: the same input gives the same result and no extra change.')
  else notes.push('Not idempotent: retrying after a TIMEOUT may repeat the change; check the state first.')
  return notes
}

function describeTool(tool: AnyTool): ManifestTool {
  const policy = tierPolicies[tool.tier]
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    tier: tool.tier,
    risk: policy.risk,
    idempotency: tool.idempotent ? 'idempotent' : 'non-idempotent',
    timeout_ms: timeoutOf(tool),
    input_schema: inputJsonSchema(tool),
    output_schema: outputJsonSchema(tool),
    error_schema: errorJsonSchema(),
    examples: tool.examples.map((example) => ({ title: example.title, input: example.input, output: example.output })),
    constraints: {
      read_only_mode_supported: policy.availableReadOnly,
      side_effects: [policy.sideEffects],
      rate_limit: toolRateLimit(tool),
      allowed_paths: allowedPaths(tool),
      notes: notesFor(tool),
    },
  }
}

/** The tool IR. Deterministic: the same registry and package.json give the same bytes. */
export function buildManifest(tools: readonly AnyTool[], pkg: PackageInfo): ToolManifest {
  const entrypoint = Object.keys(pkg.bin)[0] ?? pkg.name
  return {
    manifest_version: '1.0',
    project: {
      name: pkg.name,
      version: pkg.version,
      runtime: 'node',
      runtime_version: pkg.engines.node,
      execution_model: 'subprocess',
      execution_notes:
        'local process, no network by default: one CLI process per call (`mk tools call <tool> --input <json> --json`), or a long-lived MCP server over stdio (`mk mcp`) that keeps the index and embedding model loaded; also in-process (the library, openMk) and remote-http (mk serve, /v1/tools/<tool>)',
      entrypoint,
      description: pkg.description,
    },
    tools: tools.map(describeTool),
  }
}

/** The manifest file's exact text. */
export function renderManifest(manifest: ToolManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`
}
