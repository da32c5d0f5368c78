import { errorCodes, MkError } from '../src/errors.js'
import { errorGuide } from '../src/tools/generate/error-guide.js'
import { httpStatusByCode } from '../src/hosts/http/routes.js'
import type { JsonSchema } from '../src/tools/generate/json-schema.js'
import type { ToolManifest } from '../src/tools/generate/manifest-schema.js'
import { summarizeFields } from '../src/tools/generate/schema-summary.js'

/*
 * The reference pages of docs/reference/ that the code already knows: commands (from the oclif
 * manifest the build writes), tools and errors (from the tool registry), configuration (from
 * .mkrc.example). scripts/write-reference-pages.ts writes them; a test fails when they drift.
 */

/** The parts of oclif.manifest.json the commands page reads. */
export interface OclifManifest {
  commands: Record<string, OclifCommand>
}

interface OclifCommand {
  id: string
  summary?: string
  description?: string
  examples?: (string | { command: string; description?: string })[]
  args: Record<string, { name: string; description?: string; required?: boolean }>
  flags: Record<string, OclifFlag>
}

interface OclifFlag {
  name: string
  char?: string
  description?: string
  type: 'boolean' | 'option'
  options?: string[]
  multiple?: boolean
  allowNo?: boolean
  helpGroup?: string
  hidden?: boolean
  default?: unknown
}

const generatedNote = (source: string): string =>
  `<!-- Generated from ${source} by scripts/write-reference-pages.ts (npm run docs:reference); do not edit. -->\n`

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replaceAll('|', '\\|').trim()
}

function flagName(flag: OclifFlag): string {
  const long = flag.type === 'boolean' && flag.allowNo === true ? `--[no-]${flag.name}` : `--${flag.name}`
  return flag.char === undefined ? long : `-${flag.char}, ${long}`
}

function flagValue(flag: OclifFlag): string {
  if (flag.type === 'boolean') return ''
  const value = flag.options === undefined ? 'value' : flag.options.join(' \\| ')
  return flag.multiple === true ? `${value} (repeatable)` : value
}

function commandSection(command: OclifCommand): string {
  const name = `mk ${command.id.replaceAll(':', ' ')}`
  const args = Object.values(command.args).map((arg) => (arg.required === true ? arg.name.toUpperCase() : `[${arg.name.toUpperCase()}]`))
  const lines = [`## \`${[name, ...args].join(' ')}\``, '']
  if (command.summary !== undefined) lines.push(`${cell(command.summary)}.`, '')
  if (command.description !== undefined && command.description !== command.summary) lines.push(command.description.trim(), '')
  const own = Object.values(command.flags).filter((flag) => flag.helpGroup !== 'GLOBAL' && flag.hidden !== true)
  const rows = [
    ...Object.values(command.args).map(
      (arg) => `| \`${arg.name.toUpperCase()}\` | argument${arg.required === true ? ', required' : ''} | ${cell(arg.description ?? '')} |`,
    ),
    ...own.map((flag) => `| \`${flagName(flag)}\` | ${flagValue(flag)} | ${cell(flag.description ?? '')} |`),
  ]
  if (rows.length > 0) lines.push('| argument or flag | value | meaning |', '| --- | --- | --- |', ...rows, '')
  const examples = (command.examples ?? []).map((example) => (typeof example === 'string' ? example : example.command).replaceAll('<%= config.bin %>', 'mk'))
  if (examples.length > 0) lines.push('```sh', ...examples, '```', '')
  return lines.join('\n')
}

/** docs/reference/commands.md: every command with its arguments, flags and examples. */
export function renderCommandsPage(manifest: OclifManifest): string {
  const commands = Object.values(manifest.commands).sort((a, b) => a.id.localeCompare(b.id))
  return [
    '# Commands',
    '',
    generatedNote('the commands (oclif.manifest.json)'),
    'Every command also takes the global flags `--json` (the result, or the error object, and nothing else on',
    'stdout) and `--cwd DIR` (run as if started in DIR), before or after the command. `mk COMMAND --help`',
    '(or `-h`) prints the same as this page for one command; `mk --version` (or `-v`) prints the version.',
    'Exit codes: `0` success, `1` the command ran and found blocking problems, `2` any error',
    '([Errors](errors.md)).',
    '',
    ...commands.map((command) => `- [\`mk ${command.id.replaceAll(':', ' ')}\`](#${anchorOf(command)})`),
    '',
    ...commands.map(commandSection),
  ]
    .join('\n')
    .replace(/\n+$/, '\n')
}

/** The anchor GitHub gives the heading of a command's section. */
function anchorOf(command: OclifCommand): string {
  const args = Object.values(command.args).map((arg) => (arg.required === true ? arg.name.toUpperCase() : `[${arg.name.toUpperCase()}]`))
  return [`mk ${command.id.replaceAll(':', ' ')}`, ...args]
    .join(' ')
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replaceAll(' ', '-')
}

/** docs/reference/tools.md: every tool of the registry, its tier and its input fields. */
export function renderToolsPage(manifest: ToolManifest): string {
  const lines = [
    '# Tools',
    '',
    generatedNote('the tool registry (src/tools/registry.ts)'),
    'Every operation of mk is one tool, defined once. The same tool answers `mk tools call NAME --input JSON`,',
    'the MCP server (`mk mcp`), the team server (`POST /v1/tools/NAME`) and the library (`mk.camelCaseName(input)`);',
    'most commands are a thin wrapper over one of them ([Commands](commands.md)). The full input and output',
    'JSON Schemas are in [`llm-tooling/tool.manifest.json`](../../llm-tooling/tool.manifest.json); how agents',
    'should use each tool, with examples, in [`llm-tooling/SKILL.md`](../../llm-tooling/SKILL.md).',
    '',
    '| tool | tier | risk | what it does |',
    '| --- | --- | --- | --- |',
    ...manifest.tools.map((tool) => `| [\`${tool.name}\`](#${tool.name}) | ${tool.tier} | ${tool.risk} | ${cell(tool.title)} |`),
    '',
  ]
  for (const tool of manifest.tools) {
    lines.push(
      `## ${tool.name}`,
      '',
      `**${cell(tool.title)}** — tier \`${tool.tier}\`, risk ${tool.risk}, ${tool.idempotency.replace('-', ' ')}, timeout ${tool.timeout_ms} ms.`,
      '',
    )
    lines.push(tool.description.trim(), '')
    const fields = summarizeFields(tool.input_schema as JsonSchema)
    if (fields.length > 0) {
      lines.push('| input | type | required | meaning |', '| --- | --- | --- | --- |')
      for (const field of fields) lines.push(`| \`${field.name}\` | ${cell(field.type)} | ${field.required ? 'yes' : ''} | ${cell(field.description)} |`)
      lines.push('')
    }
  }
  return lines.join('\n').replace(/\n+$/, '\n')
}

/** docs/reference/errors.md: every error code, its HTTP status, whether to retry, and what to do. */
export function renderErrorsPage(): string {
  return [
    '# Errors',
    '',
    generatedNote('the error codes (src/errors.ts, src/tools/generate/error-guide.ts)'),
    'Every failure has one shape, on every path — `--json`, MCP, HTTP and the library (as `MkError`):',
    '',
    '```json',
    '{ "success": false, "errorCode": "INVALID_INPUT", "message": "…", "details": { "…": "…" }, "retryable": false }',
    '```',
    '',
    'The message says what was wrong, where, and how to fix it; `INVALID_INPUT` lists each bad field in',
    '`details.problems` (path, expected, received). On the command line an error is one line on stderr and',
    'exit code `2` (no stack trace); exit code `1` is not an error but a check that found blocking problems.',
    '',
    '| errorCode | HTTP | retryable | meaning | what to do |',
    '| --- | --- | --- | --- | --- |',
    ...errorCodes.map((code) => {
      const guide = errorGuide[code]
      const retryable = new MkError(code, '').retryable ? 'yes' : 'no'
      return `| \`${code}\` | ${httpStatusByCode[code]} | ${retryable} | ${cell(guide.meaning)} | ${cell(guide.action)} |`
    }),
    '',
    'What to do about the errors people meet most: [Troubleshooting](../troubleshooting.md).',
    '',
  ].join('\n')
}

/** docs/reference/configuration.md: every `.mkrc` key with its default, as .mkrc.example documents them. */
export function renderConfigurationPage(mkrcExample: string): string {
  return [
    '# Configuration (`.mkrc`)',
    '',
    generatedNote('.mkrc.example'),
    'mk reads `.mkrc` (YAML or JSON; also `.mkrc.yaml`, `.mkrc.yml`, `.mkrc.json`) from the working directory',
    'upwards; the folder holding it is the workspace. Every key is optional; the values below are the',
    'defaults. How to use them: [Configuration](../configuration.md); environment variables:',
    '[Environment variables](environment.md).',
    '',
    '```yaml',
    mkrcExample.trimEnd(),
    '```',
    '',
  ].join('\n')
}

/** Every generated page, by its path under docs/reference/. */
export function referencePages(sources: { tools: ToolManifest; commands: OclifManifest; mkrcExample: string }): Record<string, string> {
  return {
    'commands.md': renderCommandsPage(sources.commands),
    'tools.md': renderToolsPage(sources.tools),
    'errors.md': renderErrorsPage(),
    'configuration.md': renderConfigurationPage(sources.mkrcExample),
  }
}
