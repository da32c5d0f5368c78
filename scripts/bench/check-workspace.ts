import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A constraint as written in the generated knowledge files. */
export interface BenchConstraint {
  operator: string
  target: 'dependency' | 'import' | 'code' | 'file'
  pattern: string
  paths?: string[]
}

const dependencyConstraints: BenchConstraint[] = [
  { operator: 'must_not_use', target: 'dependency', pattern: '^(mysql|mysql2|mariadb)$' },
  { operator: 'must_not_use', target: 'dependency', pattern: '^moment$' },
  { operator: 'must_not_use', target: 'dependency', pattern: '^request$' },
  { operator: 'must_not_use', target: 'dependency', pattern: '^left-pad$' },
  { operator: 'must_not_use', target: 'dependency', pattern: '^underscore$' },
  { operator: 'must_not_use', target: 'dependency', pattern: '^node-sass$' },
  { operator: 'must_use', target: 'dependency', pattern: '^typescript$' },
  { operator: 'must_use', target: 'dependency', pattern: '^pg$' },
]

const importConstraints: BenchConstraint[] = [
  { operator: 'must_not_use', target: 'import', pattern: 'mysql2?' },
  { operator: 'must_not_use', target: 'import', pattern: 'moment' },
  { operator: 'must_not_use', target: 'import', pattern: 'request' },
  { operator: 'must_not_use', target: 'import', pattern: 'lodash' },
  { operator: 'must_not_use', target: 'import', pattern: '@internal/legacy(/.*)?' },
  { operator: 'must_not_use', target: 'import', pattern: 'axios', paths: ['services/**'] },
  { operator: 'must_not_use', target: 'import', pattern: 'fs', paths: ['src/browser/**'] },
  { operator: 'must_not_use', target: 'import', pattern: 'child_process' },
  { operator: 'must_not_use', target: 'import', pattern: 'pickle' },
  { operator: 'must_not_use', target: 'import', pattern: '\\.\\./\\.\\./\\.\\./.*' },
  { operator: 'must_use', target: 'import', pattern: 'zod' },
  { operator: 'must_use', target: 'import', pattern: 'logging' },
]

const codeConstraints: BenchConstraint[] = [
  { operator: 'must_not_match', target: 'code', pattern: 'console\\.log\\(' },
  { operator: 'must_not_match', target: 'code', pattern: 'debugger;' },
  { operator: 'must_not_match', target: 'code', pattern: 'TODO|FIXME' },
  { operator: 'must_not_match', target: 'code', pattern: '\\beval\\(' },
  { operator: 'must_not_match', target: 'code', pattern: 'new Function\\(' },
  { operator: 'must_not_match', target: 'code', pattern: '\\.innerHTML\\s*=' },
  { operator: 'must_not_match', target: 'code', pattern: 'process\\.env\\.[A-Z_]+', paths: ['src/**'] },
  { operator: 'must_not_match', target: 'code', pattern: '^\\s*print\\(', paths: ['**/*.py'] },
  { operator: 'must_not_match', target: 'code', pattern: 'except:\\s*$', paths: ['**/*.py'] },
  { operator: 'must_not_match', target: 'code', pattern: '\\bvar\\s+\\w+' },
  { operator: 'must_not_match', target: 'code', pattern: '==\\s*null' },
  { operator: 'must_not_match', target: 'code', pattern: 'setTimeout\\(\\s*["\']' },
  { operator: 'must_not_match', target: 'code', pattern: 'document\\.write' },
  { operator: 'must_not_match', target: 'code', pattern: '(?i)password\\s*=\\s*["\']' },
  { operator: 'must_not_match', target: 'code', pattern: '[A-Z0-9]{32,}' },
  { operator: 'must_not_match', target: 'code', pattern: 'http://' },
  { operator: 'must_not_match', target: 'code', pattern: '@ts-ignore' },
  { operator: 'must_not_match', target: 'code', pattern: '\\bas any\\b' },
  { operator: 'must_not_match', target: 'code', pattern: 'eslint-disable' },
  { operator: 'must_not_match', target: 'code', pattern: 'sleep\\(\\d{4,}\\)' },
  { operator: 'must_not_match', target: 'code', pattern: 'assert\\s+False' },
  { operator: 'must_not_match', target: 'code', pattern: '\\bglobal\\s+\\w+', paths: ['**/*.py'] },
  { operator: 'must_not_match', target: 'code', pattern: 'Math\\.random\\(\\)' },
  { operator: 'must_not_match', target: 'code', pattern: '\\.then\\(\\s*\\)' },
  { operator: 'must_match', target: 'code', pattern: 'Copyright \\d{4}', paths: ['src/**/*.ts'] },
]

const fileConstraints: BenchConstraint[] = [
  { operator: 'must_not_exist', target: 'file', pattern: '**/.env' },
  { operator: 'must_not_exist', target: 'file', pattern: '**/*.pem' },
  { operator: 'must_not_exist', target: 'file', pattern: '**/id_rsa' },
  { operator: 'must_exist', target: 'file', pattern: 'README.md' },
  { operator: 'must_exist', target: 'file', pattern: 'LICENSE' },
]

/** 50 constraints over every target. */
export const benchConstraints: readonly BenchConstraint[] = [...dependencyConstraints, ...importConstraints, ...codeConstraints, ...fileConstraints]

/** A small deterministic generator, so every run checks the same workspace. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

const jsModules = [
  'react',
  'zod',
  'lodash/fp',
  'express',
  'pg',
  '@scope/util',
  'node:path',
  'node:fs',
  'axios',
  'moment',
  './helpers.js',
  '../shared/types.js',
  'yaml',
  'chalk',
]
const pyModules = ['os', 'sys', 'json', 'logging', 'typing', 'collections', 'pickle', 'requests', 'dataclasses', 'pathlib']
const jsLines = [
  '  const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0)',
  '  if (total > limit) return { ok: false, reason: `over the limit by ${total - limit}` }',
  '  for (const entry of entries) result.push(transform(entry, options))',
  '  const response = await client.query("SELECT id, name FROM accounts WHERE id = $1", [id])',
  '  // keep the order stable for the snapshot tests',
  '  logger.info("processed %d records", records.length)',
  '  return values.filter((value) => value !== undefined).map(String)',
  '  const pattern = /^[a-z]+\\/[0-9]+$/i',
  '  throw new Error(`unexpected state ${state} for ${key}`)',
  '  const next = { ...previous, updatedAt: new Date().toISOString() }',
]
const jsViolations = [
  '  console.log("debug", value)',
  '  // TODO remove this branch',
  '  var legacy = 1',
  '  if (value == null) return',
  '  element.innerHTML = html',
  '  const url = "http://example.com/api"',
]
const pyLines = [
  '    total = sum(item.price * item.quantity for item in items)',
  '    if total > limit:',
  '        return {"ok": False, "reason": f"over the limit by {total - limit}"}',
  '    for entry in entries:',
  '        result.append(transform(entry, options))',
  '    logger.info("processed %d records", len(records))',
  '    # keep the order stable for the snapshot tests',
  '    values = [str(value) for value in values if value is not None]',
]
const pyViolations = ['    print("debug", value)', '    # FIXME handle the error', '    except:', '    password = "hunter2"']

function jsFile(next: () => number, index: number): string {
  const lines = [`// Copyright 2024 Example Corp. File ${index}.`]
  const imports = 4 + Math.floor(next() * 5)
  for (let count = 0; count < imports; count++) {
    const module = jsModules[Math.floor(next() * jsModules.length)] as string
    lines.push(next() < 0.2 ? `const m${count} = require('${module}')` : `import m${count} from '${module}'`)
  }
  lines.push('')
  while (lines.length < 100) {
    lines.push(`export function handler${lines.length}(items, limit, options) {`)
    for (let body = 0; body < 8; body++) {
      lines.push(next() < 0.01 ? (jsViolations[Math.floor(next() * jsViolations.length)] as string) : (jsLines[Math.floor(next() * jsLines.length)] as string))
    }
    lines.push('}', '')
  }
  return `${lines.join('\n')}\n`
}

function pyFile(next: () => number): string {
  const lines = ['"""Generated module for the check benchmark."""']
  const imports = 3 + Math.floor(next() * 4)
  for (let count = 0; count < imports; count++) {
    const module = pyModules[Math.floor(next() * pyModules.length)] as string
    lines.push(next() < 0.3 ? `from ${module} import something_${count}` : `import ${module}`)
  }
  lines.push('')
  while (lines.length < 100) {
    lines.push(`def handler_${lines.length}(items, limit, options):`)
    for (let body = 0; body < 8; body++) {
      lines.push(next() < 0.01 ? (pyViolations[Math.floor(next() * pyViolations.length)] as string) : (pyLines[Math.floor(next() * pyLines.length)] as string))
    }
    lines.push('')
  }
  return `${lines.join('\n')}\n`
}

function knowledgeFile(index: number, constraints: readonly BenchConstraint[]): string {
  const lines = ['---', `title: Bench decision ${index}`, 'type: adr', 'status: accepted', 'severity: block', 'constraints:']
  for (const constraint of constraints) {
    lines.push(`  - operator: ${constraint.operator}`, `    target: ${constraint.target}`, `    pattern: ${JSON.stringify(constraint.pattern)}`)
    if (constraint.paths !== undefined) lines.push(`    paths: ${JSON.stringify(constraint.paths)}`)
  }
  lines.push('---', `# Bench decision ${index}`, '', 'Generated for the check benchmark.', '')
  return lines.join('\n')
}

export interface BenchWorkspace {
  root: string
  /** Relative paths of the generated source files. */
  sources: string[]
}

/** `fileCount` source files (~100 lines, TS/JS/Python; 2,000 unless told), a package.json with 100 dependencies and 50 constraints. */
export async function makeCheckWorkspace(fileCount = 2000): Promise<BenchWorkspace> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-check-'))
  const next = random(42)
  const write = async (path: string, content: string): Promise<void> => {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
  const sources: string[] = []
  for (let index = 0; index < fileCount; index++) {
    const folder = ['src', 'services', 'lib', 'src/browser'][index % 4] as string
    const kind = index % 10 < 5 ? 'ts' : index % 10 < 8 ? 'js' : 'py'
    const path = `${folder}/module${index % 40}/file${index}.${kind}`
    sources.push(path)
    await write(path, kind === 'py' ? pyFile(next) : jsFile(next, index))
  }
  const dependencies: Record<string, string> = { typescript: '^5.0.0', pg: '^8.0.0', moment: '^2.0.0' }
  for (let index = 0; dependencies[`package-${index}`] === undefined && Object.keys(dependencies).length < 100; index++)
    dependencies[`package-${index}`] = `^1.${index}.0`
  await write('package.json', `${JSON.stringify({ name: 'bench', version: '1.0.0', dependencies }, null, 2)}\n`)
  await write('README.md', '# Bench\n')
  await write('.gitignore', 'node_modules/\ndist/\n')
  for (let index = 0; index < 10; index++) {
    await write(`knowledge/adr/adr-${String(index + 1).padStart(4, '0')}-bench.md`, knowledgeFile(index + 1, benchConstraints.slice(index * 5, index * 5 + 5)))
  }
  return { root, sources }
}
