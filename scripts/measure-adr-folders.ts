import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/*
 * How existing ADR folders load, tried as a new user would: for each folder given on the command line,
 * a scratch workspace whose .mkrc names the folder as its knowledge source, then the built `mk`
 * runs `knowledge list --json`, `knowledge lint --json` and `knowledge check`.
 *
 *   node dist/scripts/measure-adr-folders.js [--items report.tsv] <adr-folder>...
 *
 * Prints one line per folder (markdown files, items loaded, statuses, exit codes). With --items, writes
 * every loaded item (folder, path, title, status, raw status) to a TSV file, to judge titles and statuses by reading.
 */
const mk = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
const args = process.argv.slice(2)
const itemsAt = args.indexOf('--items')
const itemsFile = itemsAt >= 0 ? args[itemsAt + 1] : undefined
const folders = args.filter((_arg, index) => index !== itemsAt && index !== itemsAt + 1)

interface ListedItem {
  id: string
  title: string
  status: string
  statusRaw?: string
  path: string
}

function markdownFiles(folder: string): number {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter(
    (name) => name.toLowerCase().endsWith('.md') && statSync(join(folder, name)).isFile(),
  ).length
}

function run(workspace: string, command: string[]): { exitCode: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [mk, ...command], {
    cwd: workspace,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', MK_HOME: join(workspace, '.mk-home') },
  })
  return { exitCode: result.status ?? -1, stdout: result.stdout, stderr: result.stderr }
}

const rows: string[] = ['folder\tmd files\tloaded\tstatuses\tunmapped\tlist exit\tcheck exit\tlint errors']
const itemLines: string[] = ['folder\tpath\ttitle\tstatus\tstatusRaw']
for (const folder of folders) {
  const workspace = mkdtempSync(join(tmpdir(), 'mk-measure-'))
  try {
    writeFileSync(join(workspace, '.mkrc'), `knowledge:\n  sources:\n    - { name: adrs, layer: project, path: ${JSON.stringify(resolve(folder))} }\n`)
    const list = run(workspace, ['knowledge', 'list', '--json'])
    const check = run(workspace, ['knowledge', 'check'])
    const lint = run(workspace, ['knowledge', 'lint', '--json'])
    const items = list.exitCode === 0 ? ((JSON.parse(list.stdout) as { items: ListedItem[] }).items ?? []) : []
    const lintProblems = lint.stdout.trim().startsWith('{')
      ? ((JSON.parse(lint.stdout) as { problems?: { code: string; severity: string }[] }).problems ?? [])
      : []
    const statuses = new Map<string, number>()
    for (const item of items) statuses.set(item.status, (statuses.get(item.status) ?? 0) + 1)
    const name = folder
    rows.push(
      [
        name,
        markdownFiles(resolve(folder)),
        items.length,
        [...statuses].map(([status, count]) => `${status}:${count}`).join(' '),
        lintProblems.filter((problem) => problem.code === 'unmapped-status').length,
        list.exitCode,
        check.exitCode,
        lintProblems.filter((problem) => problem.severity === 'error').length,
      ].join('\t'),
    )
    for (const item of items) itemLines.push([name, item.path.replace(/^.*?\/(?=[^/]+$)/, ''), item.title, item.status, item.statusRaw ?? ''].join('\t'))
    if (list.exitCode !== 0) process.stderr.write(`${name}: knowledge list failed: ${list.stderr}\n`)
    if (check.exitCode !== 0) process.stderr.write(`${name}: knowledge check exited ${check.exitCode}: ${check.stderr}\n`)
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}
process.stdout.write(`${rows.join('\n')}\n`)
if (itemsFile !== undefined) writeFileSync(itemsFile, `${itemLines.join('\n')}\n`)
