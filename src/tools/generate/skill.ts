import { errorCodes } from '../../errors.js'
import { tiers } from '../define.js'
import { errorGuide } from './error-guide.js'
import { exportFormats } from './function-schemas.js'
import type { ManifestTool, ToolManifest } from './manifest-schema.js'
import { summarizeFields, type FieldSummary } from './schema-summary.js'
import { tierPolicies } from './tier-policy.js'
import { shellQuote } from '../../text.js'

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replace(/\s+/g, ' ').trim()
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n')
}

function fence(language: string, text: string): string {
  return `\`\`\`${language}\n${text}\n\`\`\``
}

function fieldTable(fields: readonly FieldSummary[], withRequired: boolean): string {
  if (fields.length === 0) return 'None.'
  return withRequired
    ? table(
        ['Field', 'Type', 'Required', 'Description'],
        fields.map((field) => [`\`${field.name}\``, field.type, field.required ? 'yes' : 'no', field.description]),
      )
    : table(
        ['Field', 'Type', 'Description'],
        fields.map((field) => [`\`${field.name}\`${field.required ? '' : ' (optional)'}`, field.type, field.description]),
      )
}

function exampleSection(tool: ManifestTool): string {
  const example = tool.examples[0]
  if (example === undefined) return ''
  const input = example.input ?? {}
  const call = { tool: tool.name, input }
  const mcp = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: input } }
  return [
    `**Example: ${example.title}**`,
    '',
    'Generic JSON call:',
    '',
    fence('json', JSON.stringify(call)),
    '',
    'CLI:',
    '',
    fence('sh', `mk tools call ${tool.name} --input ${shellQuote(JSON.stringify(input))} --json`),
    '',
    'MCP (`tools/call` request to `mk mcp`):',
    '',
    fence('json', JSON.stringify(mcp)),
    '',
    'Result (`structuredContent` over MCP, stdout with `--json`):',
    '',
    fence('json', JSON.stringify(example.output)),
  ].join('\n')
}

function toolSection(tool: ManifestTool): string {
  return [
    `### \`${tool.name}\` — ${tool.title}`,
    '',
    tool.description,
    '',
    `- Risk: **${tool.risk}** (tier \`${tool.tier}\`); side effects: ${tool.constraints.side_effects.join('; ')}.`,
    `- Rate limit: ${tool.constraints.rate_limit.requests_per_minute} calls a minute per caller (MCP client, team server credential); paths: ${tool.constraints.allowed_paths.map((path) => `\`${path}\``).join(', ')}.`,
    `- Timeout: ${tool.timeout_ms} ms.`,
    ...tool.constraints.notes.map((note) => `- ${note}`),
    '',
    '**Input**',
    '',
    fieldTable(summarizeFields(tool.input_schema), true),
    '',
    '**Output**',
    '',
    fieldTable(summarizeFields(tool.output_schema), false),
    '',
    exampleSection(tool),
  ].join('\n')
}

const whatItDoes = `mk keeps two things for a software project and the agents that work on it:

- **Knowledge**: the organisation's decisions and rules (ADRs, policies, patterns, specs, rules) as markdown files with YAML frontmatter in git, layered company > org > team > project. Some carry machine-checkable constraints (for example "must not use the dependency mysql") that mk enforces.
- **Memory**: short facts worth recalling later ("the staging DB is read-only on Fridays"), in layers agent, session, user, project, team, org, company.

Both are searchable through one local index (full text plus vectors from a local embedding model). Everything runs on this machine; no network or API key is needed unless the person configured a remote knowledge source.`

const whenToUse = `Use mk when you need to:

- find what the organisation decided before proposing or changing a design (search knowledge, show an ADR);
- check whether a dependency, import or code pattern you plan to add is allowed, before you add it;
- remember a fact for later sessions, or recall what was learned before (search memory by meaning);
- record a new decision as a knowledge item that people review in a pull request.

Do not use mk:

- as a general web or code search: it only knows the knowledge items and memories in its sources;
- to store secrets, credentials or personal data: memories and knowledge are plain files, and the shared layers are committed to git;
- to store large documents or logs: a memory is a short fact; link to the document instead;
- to bypass a blocking constraint: report it to the person, or propose a waiver in the item's review.`

const howToCall = `Three equivalent ways; every tool takes and returns the same JSON in each:

- **MCP** (preferred for agents): the client starts \`mk mcp\` (stdio). Tools are listed with input and output JSON Schemas and annotations (readOnlyHint, destructiveHint, idempotentHint). A result carries the output as \`structuredContent\` and a human rendering as text. \`mk mcp --print-config\` prints the configuration snippet for common clients.
- **CLI**: \`mk tools call <tool> --input '<json>' --json\` prints the output JSON on stdout (or the error object). Exit code 0 ok, 1 the tool ran and found blocking problems (a failed check), 2 any error. The per-topic commands (\`mk knowledge list\`, ...) take flags instead of JSON; \`mk <topic> --help\` lists them.
- **Function calling**: \`mk tools export --format ${exportFormats.join('|')}\` prints the definitions to pass to a model API; execute each call with one of the two ways above.`

function errorSection(): string {
  return [
    'Every failure, on every path, is one JSON object: `{"success": false, "errorCode", "message", "details"?, "retryable"}`. Over MCP it comes as a text part of a result with `isError: true`.',
    '',
    table(
      ['Code', 'Meaning', 'What to do'],
      errorCodes.map((code) => [`\`${code}\``, errorGuide[code].meaning, errorGuide[code].action]),
    ),
    '',
    'An INVALID_INPUT error lists each bad field, what was expected and what was received (over MCP, `details.inputSchema` adds the whole input schema). For example, a misspelt key:',
    '',
    fence(
      'json',
      JSON.stringify(
        {
          success: false,
          errorCode: 'INVALID_INPUT',
          message: 'invalid input for knowledge_list: tpye: expected no such key, received an unknown key',
          details: {
            tool: 'knowledge_list',
            problems: [{ path: 'tpye', expected: 'no such key', received: 'an unknown key', message: 'tpye: expected no such key, received an unknown key' }],
          },
          retryable: false,
        },
        null,
        2,
      ),
    ),
  ].join('\n')
}

function safetySection(): string {
  return [
    'Every tool has a tier; the tier sets its risk and where it may run:',
    '',
    table(
      ['Tier', 'Risk', 'Calls a minute', 'Side effects', 'In read-only mode and the worker profile'],
      tiers.map((tier) => [
        `\`${tier}\``,
        tierPolicies[tier].risk,
        String(tierPolicies[tier].requestsPerMinute),
        tierPolicies[tier].sideEffects,
        tierPolicies[tier].availableReadOnly ? 'available' : 'refused / not offered',
      ]),
    ),
    '',
    '- **Read-only mode**: with `MK_READ_ONLY=1` or `READ_ONLY=1` (any value but 0/false/no/off), or `mk mcp --read-only`, every tool above `read_only` is refused with FORBIDDEN.',
    '- **Profiles**: `mk mcp --profile worker` offers only read-only tools; a worker agent cannot store, delete or sync because those tools do not exist for it. `--profile main` (the default) offers all.',
    '- **Approval**: elevated tools, and deleting a memory from a shared layer (project, team, org, company), ask a person every time (MCP elicitation, or a terminal prompt; `--yes` on the CLI); where nobody can be asked they are refused with FORBIDDEN. Never try to work around a refusal.',
    "- **Rate limits**: each tool's `constraints.rate_limit` is enforced per caller by the MCP server (its client) and the team server (the agent each credential proves, in every scope together): over it, RATE_LIMITED with `details.retry_after_s`. A CLI process makes one call and is not limited; nor is a team server without authentication, which trusts whoever reaches it.",
    '- **Allowed paths**: a path a caller gives a tool (`constraints.allowed_paths`) must lie, as written and through symbolic links, inside the workspace or MK_HOME as listed; otherwise INVALID_INPUT naming the field.',
    '- **Outputs** never contain embeddings, index internals or absolute paths of the home directory; paths are relative to the workspace.',
    '- **Content**: do not store secrets or personal data in memories or knowledge; shared layers are committed to git and read by everyone with access to the repository.',
  ].join('\n')
}

const operationalNotes = `- Files are the truth: knowledge items and memories are markdown files a person can read, edit and review. The index (\`.mk/index.db\`) is derived and can always be rebuilt.
- The workspace is the folder holding \`.mkrc\`, else the git root, else the working directory; \`--cwd <dir>\` (CLI and \`mk mcp\`) chooses another. Private memories live under \`MK_HOME\` (default \`~/.mk\`).
- \`mk mcp\` keeps the index and the embedding model loaded between calls: prefer it over one CLI process per call when you make many calls.
- Every tool has a timeout (\`timeout_ms\`); a TIMEOUT is retryable.
- \`MK_LOG=json\` writes one JSON line per tool call on stderr (request id, tool, duration, status, error code; never the payload).
- Warnings that do not stop a call (a skipped unreadable file) come on stderr from the CLI and as extra text parts over MCP.`

/** SKILL.md: what an agent needs to use mk well, rendered from the manifest alone. */
export function renderSkill(manifest: ToolManifest): string {
  const { project } = manifest
  const overview = table(
    ['Tool', 'Risk', 'What it does'],
    manifest.tools.map((tool) => [`\`${tool.name}\``, tool.risk, tool.title]),
  )
  const sections = [
    `---\nname: ${project.name}\ndescription: ${cell(`${project.description}. Use it to look up and check the organisation's decisions (ADRs, policies) and to store and recall memories.`)}\n---`,
    `# ${project.name} ${project.version}`,
    `<!-- Generated from tool.manifest.json by \`mk tools skill\`; do not edit by hand. -->`,
    `## What mk does\n\n${whatItDoes}`,
    `## When to use it\n\n${whenToUse}`,
    `## How to call it\n\n${howToCall}`,
    `## Tools\n\n${overview}`,
    ...manifest.tools.map(toolSection),
    `## Errors\n\n${errorSection()}`,
    `## Safety\n\n${safetySection()}`,
    `## Operational notes\n\n${operationalNotes}`,
  ]
  return `${sections.join('\n\n')}\n`
}
