import type { ToolManifest } from '../generate/manifest-schema.js'

/** A one-tool manifest, shared by the examples of the tools that render manifests. */
export const exampleManifest: ToolManifest = {
  manifest_version: '1.0',
  project: {
    name: 'mk',
    version: '0.1.0',
    runtime: 'node',
    runtime_version: '>=20.9',
    execution_model: 'subprocess',
    execution_notes: 'local process: CLI (`mk tools call`) or MCP server over stdio (`mk mcp`)',
    entrypoint: 'mk',
    description: 'Local-first memory and knowledge for developers and AI coding agents',
  },
  tools: [
    {
      name: 'knowledge_list',
      title: 'List knowledge items',
      description: 'List every knowledge item of every configured source.',
      tier: 'read_only',
      risk: 'low',
      idempotency: 'idempotent',
      timeout_ms: 30000,
      input_schema: { type: 'object', properties: {}, additionalProperties: false },
      output_schema: { type: 'object', properties: { totalCount: { type: 'integer' } }, additionalProperties: false },
      error_schema: { type: 'object' },
      examples: [{ title: 'List everything', input: {}, output: { items: [], totalCount: 0 } }],
      constraints: {
        read_only_mode_supported: true,
        side_effects: ['none'],
        rate_limit: { requests_per_minute: 600 },
        allowed_paths: ['<workspace>/**', '<MK_HOME>/**'],
        notes: [],
      },
    },
  ],
}
