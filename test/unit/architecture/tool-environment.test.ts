import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * A tool reads its environment and working directory from its ToolContext (ctx.env, ctx.cwd),
 * never from the process: one `mk serve` process runs every tenant's calls, so the process's
 * environment and folder belong to no call.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))
const tools = join(root, 'src', 'tools')

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** `process.env`, `process.cwd()`, `process['env']`, `const { env } = process` and imports from node:process. */
const processReads = [
  /\bprocess\s*(?:\?\.|\.)\s*(?:env|cwd)\b/,
  /\bprocess\s*\[\s*['"`](?:env|cwd)['"`]\s*\]/,
  /\{[^}]*\b(?:env|cwd)\b[^}]*\}\s*=\s*process\b/,
  /\bfrom\s+['"](?:node:)?process['"]/,
]

function processReadsIn(text: string): string[] {
  return text.split('\n').flatMap((line, index) => (processReads.some((pattern) => pattern.test(line)) ? [`${index + 1}: ${line.trim()}`] : []))
}

describe('tools and the process environment', () => {
  it('finds the reads it looks for', () => {
    expect(processReadsIn('const policy = hubPolicyFrom(process.env, served)')).toHaveLength(1)
    expect(processReadsIn("const here = process['cwd']()")).toHaveLength(1)
    expect(processReadsIn('const { env } = process')).toHaveLength(1)
    expect(processReadsIn("import { cwd } from 'node:process'")).toHaveLength(1)
    expect(processReadsIn('const policy = hubPolicyFrom(ctx.env, served)\nprocess.stderr.write(line)')).toEqual([])
  })

  it('no file under src/tools reads process.env or process.cwd()', () => {
    const offenders = sourceFiles(tools).flatMap((file) => processReadsIn(readFileSync(file, 'utf8')).map((line) => `${relative(root, file)}:${line}`))
    expect(offenders, 'read ctx.env and ctx.cwd (src/tools/context.ts) instead').toEqual([])
  })
})
