import { resolve } from 'node:path'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { reportFormats } from '../../src/constraints/reporters/formats.js'
import { parseJsonObject, readStdin } from '../../src/hosts/cli/json-input.js'
import type { ErrorObject } from '../../src/errors.js'
import { severities } from '../../src/knowledge/model.js'
import { knowledgeCheck } from '../../src/tools/knowledge/check.js'
import { knowledgeUpdateBaseline } from '../../src/tools/knowledge/update-baseline.js'

const proposalHint = 'pipe {"files":[{"path":"src/a.ts","content":"..."}],"dependencies":[{"name":"x","version":"1.0.0"}]}'

/** A failed check still writes SARIF, so a CI step that uploads it shows the error. */
async function sarifOfError(error: ErrorObject): Promise<string> {
  const [{ renderSarifError }, { readPackageInfo }] = await Promise.all([
    import('../../src/constraints/reporters/sarif.js'),
    import('../../src/tools/generate/project.js'),
  ])
  return renderSarifError(error, { version: (await readPackageInfo()).version })
}

function parseDependency(spec: string): { name: string; version?: string } {
  const at = spec.indexOf('@', 1)
  return at === -1 ? { name: spec } : { name: spec.slice(0, at), version: spec.slice(at + 1) }
}

export default class KnowledgeCheck extends MkCommand {
  static override summary = knowledgeCheck.title
  static override description = knowledgeCheck.description
  static override examples = [
    '<%= config.bin %> knowledge check',
    '<%= config.bin %> knowledge check --staged',
    '<%= config.bin %> knowledge check --files src/db.ts package.json',
    '<%= config.bin %> knowledge check --dependencies mysql2@3 --json',
    `echo '{"files":[{"path":"src/a.ts","content":"import mysql from \\"mysql2\\""}]}' | <%= config.bin %> knowledge check --stdin --json`,
    '<%= config.bin %> knowledge check --format sarif > mk.sarif',
    '<%= config.bin %> knowledge check --update-baseline',
  ]
  static override flags = {
    files: Flags.string({ description: 'Check only these files (paths relative to the current directory).', multiple: true }),
    staged: Flags.boolean({ description: 'Check the content staged in the git index, not the working tree.' }),
    dependencies: Flags.string({ description: 'Check proposed dependencies NAME[@VERSION] as if added to package.json.', multiple: true }),
    stdin: Flags.boolean({ description: 'Read a proposed change as JSON from stdin: {"files":[{"path","content"}],"dependencies":[{"name","version"}]}.' }),
    'fail-on': Flags.string({ description: 'Lowest severity that fails the check (default check.failOn, else block).', options: ['block', 'warn'] }),
    'min-severity': Flags.string({ description: 'Do not report violations below this severity.', options: [...severities], default: 'warn' }),
    format: Flags.string({ description: 'Output format.', options: [...reportFormats], default: 'text' }),
    item: Flags.string({ description: 'Only the constraints of this knowledge item id.', multiple: true }),
    'update-baseline': Flags.boolean({
      description: 'Record every current violation in the baseline file (.mk-baseline.json) instead of checking.',
      exclusive: ['files', 'staged', 'dependencies', 'stdin', 'item'],
    }),
  }

  protected override jsonRequested(): boolean {
    const format = this.argv.findIndex((arg) => arg === '--format')
    return super.jsonRequested() || this.argv.includes('--format=json') || (format !== -1 && this.argv[format + 1] === 'json')
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(KnowledgeCheck)
    if (flags['update-baseline']) {
      await this.callTool(knowledgeUpdateBaseline, {}, flags)
      return
    }
    const proposal = flags.stdin ? parseJsonObject(await readStdin(), '--stdin', proposalHint) : {}
    const dependencies = [...((proposal.dependencies as unknown[] | undefined) ?? []), ...(flags.dependencies ?? []).map(parseDependency)]
    const base = flags.cwd ?? process.cwd()
    await this.callTool(
      knowledgeCheck,
      {
        ...proposal,
        ...(dependencies.length > 0 ? { dependencies } : {}),
        paths: flags.files?.map((file) => resolve(base, file)),
        staged: flags.staged ? true : undefined,
        failOn: flags['fail-on'],
        minSeverity: flags['min-severity'],
        knowledgeItemIds: flags.item,
        format: flags.format,
      },
      { ...flags, json: flags.json || flags.format === 'json' },
      flags.format === 'sarif' ? { failureOutput: sarifOfError } : {},
    )
  }
}
