import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { findImportSites } from '../../../src/constraints/scan/imports.js'

/**
 * The floors of knowledge/policies/policy-layering.md, checked on resolved
 * files rather than on import specifiers: every folder has a floor, no import
 * goes sideways or up, and no two files import each other through any path.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))
const src = join(root, 'src')
const topLevel = 'src/*.ts'

interface PolicyConstraint {
  id: string
  paths: string[]
}

/** Each floor's folders, bottom first, as the policy's constraints name them (`src/memory/**` -> `memory`). */
function floorsOfPolicy(): string[][] {
  const text = readFileSync(join(root, 'knowledge/policies/policy-layering.md'), 'utf8')
  const frontmatter = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? ''
  const constraints = (parse(frontmatter) as { constraints: PolicyConstraint[] }).constraints
  return constraints
    .filter((constraint) => constraint.id.startsWith('floor-'))
    .map((constraint) => constraint.paths.map((path) => (path === topLevel ? topLevel : path.replace(/^src\//, '').replace(/\/\*\*$|\/\*\.ts$/, ''))))
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** The file a relative specifier names (`./x.js` is x.ts or x.tsx), or undefined for a package or a non-source file. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const target = resolve(dirname(from), specifier)
  for (const candidate of [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target]) {
    if (candidate.startsWith(src) && existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

/** The folder a file's floor is decided by: `src/*.ts`, `memory`, under hosts its host (`hosts/http`), under stores an implementation (`stores/files`) or the interfaces (`stores`). */
function folderOf(file: string): string {
  const parts = relative(src, file).split(sep)
  if (parts.length === 1) return topLevel
  if (parts[0] === 'hosts') return `hosts/${parts[1] ?? ''}`
  if (parts[0] === 'stores' && parts.length > 2) return `stores/${parts[1] ?? ''}`
  return parts[0] ?? ''
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(src)) {
    const { sites } = findImportSites(file, readFileSync(file, 'utf8'))
    const targets = sites.map((site) => resolveImport(file, site.specifier)).filter((target): target is string => target !== undefined)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** Strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter)
    counter += 1
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()
      if (member === undefined) break
      onStack.delete(member)
      component.push(relative(root, member))
    } while (member !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the floors of src/', () => {
  const floors = floorsOfPolicy()
  const floorOf = new Map(floors.flatMap((folders, floor) => folders.map((folder) => [folder, floor] as const)))
  const graph = importGraph()

  it('reads the floors from the layering policy', () => {
    expect(floors.length).toBeGreaterThan(5)
    expect(floorOf.get('search')).toBeLessThan(floorOf.get('memory') ?? -1)
  })

  it('gives every folder of src/ a floor', () => {
    const folders = new Set([...graph.keys()].map(folderOf))
    expect([...folders].filter((folder) => !floorOf.has(folder)).sort()).toEqual([])
  })

  it('has every import go down a floor or stay inside its own folder', () => {
    const wrongWay: string[] = []
    for (const [file, targets] of graph) {
      const from = folderOf(file)
      for (const target of targets) {
        const to = folderOf(target)
        if (to === from) continue
        if ((floorOf.get(to) ?? Infinity) >= (floorOf.get(from) ?? -Infinity)) wrongWay.push(`${relative(root, file)} -> ${relative(root, target)}`)
      }
    }
    expect(wrongWay).toEqual([])
  })

  it('has no import cycle between files', () => {
    expect(cycles(graph)).toEqual([])
  })

  it('finds a cycle when there is one', () => {
    const a = join(src, 'a.ts')
    const b = join(src, 'b.ts')
    const c = join(src, 'c.ts')
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a, c]],
          [c, []],
        ]),
      ),
    ).toEqual([['src/a.ts', 'src/b.ts']])
  })
})
