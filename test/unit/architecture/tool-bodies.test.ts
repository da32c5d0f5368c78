import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * A tool file is its schema, one use-case call and an optional `render(output, style)`:
 * the use case lives in the domain folder it belongs to, where the other hosts and tests
 * can reach it without a tool. This test measures every `run` body and fails on one
 * longer than `maxRunLines`.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))
const tools = join(root, 'src', 'tools')

/** Lines between the braces of `run`, blank lines and comments included. */
const maxRunLines = 25

/**
 * Tools whose run still returns its display text instead of data a `render(output, style)` turns
 * into text: the list only shrinks, and a tool leaves it when it renders.
 */
const displayInRun = new Set([
  'knowledge_check',
  'memory_activate',
  'memory_consolidate',
  'memory_rehydrate',
  'memory_search',
  'rules_detect_context',
  'rules_query_directives',
  'sync_now',
  'tools_export',
  'tools_feedback',
  'tools_manifest',
  'tools_search',
  'tools_select',
])

interface ToolBody {
  name: string
  file: string
  /** Lines between the braces of its run body. */
  runLines: number
  /** Whether the tool has render(output, style); without one, run builds the display text itself. */
  renders: boolean
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : []
  })
}

function propertyName(node: ts.ObjectLiteralElementLike): string | undefined {
  return node.name !== undefined && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined
}

function bodyOf(member: ts.ObjectLiteralElementLike): ts.Node | undefined {
  if (ts.isMethodDeclaration(member)) return member.body
  if (ts.isPropertyAssignment(member) && (ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer))) return member.initializer.body
  return undefined
}

/** Every `defineTool({...})` of a source text, with the length of its run body. */
function toolBodiesIn(text: string, file = 'tool.ts'): ToolBody[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: ToolBody[] = []
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineTool') {
      const definition = node.arguments[0]
      if (definition !== undefined && ts.isObjectLiteralExpression(definition)) {
        const members = new Map(definition.properties.map((member) => [propertyName(member), member]))
        const nameMember = members.get('name')
        const name =
          nameMember !== undefined && ts.isPropertyAssignment(nameMember) && ts.isStringLiteral(nameMember.initializer) ? nameMember.initializer.text : '?'
        const runMember = members.get('run')
        const body = runMember === undefined ? undefined : bodyOf(runMember)
        const runLines = body === undefined ? 0 : Math.max(0, lineOf(body.getEnd()) - lineOf(body.getStart(source)) - 1)
        found.push({ name, file, runLines, renders: members.has('render') })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function registeredToolBodies(): ToolBody[] {
  return sourceFiles(tools).flatMap((file) => toolBodiesIn(readFileSync(file, 'utf8'), relative(root, file)))
}

describe('tool bodies', () => {
  it('measures a run body between its braces, and whether the tool renders', () => {
    const text = [
      "defineTool({ name: 'short', async run(input, ctx) {",
      '  const a = 1',
      '  return { output: a }',
      '}, render(output) { return String(output) } })',
      "defineTool({ name: 'arrow', run: async () => {",
      '  return { output: 1, display: "1" }',
      '} })',
    ].join('\n')
    expect(toolBodiesIn(text)).toEqual([
      { name: 'short', file: 'tool.ts', runLines: 2, renders: true },
      { name: 'arrow', file: 'tool.ts', runLines: 1, renders: false },
    ])
  })

  it(`no tool's run body is longer than ${maxRunLines} lines (the use case lives in its domain folder)`, () => {
    const bodies = registeredToolBodies()
    const total = bodies.reduce((sum, body) => sum + body.runLines, 0)
    const rendering = bodies.filter((body) => body.renders).length
    // The figures the renovation's note records: total run lines, and tools that still build display text in run.
    console.info(`tool bodies: ${bodies.length} tools, ${total} lines of run(), ${bodies.length - rendering} build their display in run`)
    const tooLong = bodies.filter((body) => body.runLines > maxRunLines).map((body) => `${body.name} (${body.file}): ${body.runLines} lines`)
    expect(tooLong, `move the use case into its domain folder; run stays at most ${maxRunLines} lines`).toEqual([])
  })

  it('a tool renders its output, except the tools still waiting to (displayInRun)', () => {
    const bodies = registeredToolBodies()
    const notRendering = bodies.filter((body) => !body.renders && !displayInRun.has(body.name)).map((body) => `${body.name} (${body.file})`)
    expect(notRendering, 'return data from run and build the text in render(output, style)').toEqual([])
    const rendering = new Set(bodies.filter((body) => body.renders).map((body) => body.name))
    const stale = [...displayInRun].filter((name) => rendering.has(name) || !bodies.some((body) => body.name === name))
    expect(stale, 'these tools render now (or are gone): remove them from displayInRun').toEqual([])
  })
})
