import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'

/**
 * The tools that describe the others (tools_search, tools_manifest, tools_export, tools_skill)
 * read the list the registry hands over; a command runs one tool without the registry, so the
 * command must load it first or they describe no tool at all.
 */

const home = mkdtempSync(join(tmpdir(), 'mk-catalog-'))
const run = (args: string[]) => runMk(args, { cwd: home, env: { MK_HOME: join(home, '.mk-home') } })

afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('catalog commands', () => {
  it('mk tools search finds the memory tools', async () => {
    const found = parseJson<{ tools: { name: string }[] }>(await run(['tools', 'search', 'add', 'a', 'memory', '--json']))
    expect(found.tools.map((tool) => tool.name)).toContain('memory_add')
  })

  it('mk tools manifest, export and skill describe every tool', async () => {
    const manifest = parseJson<{ tools: { name: string }[] }>(await run(['tools', 'manifest', '--json']))
    expect(manifest.tools.length).toBeGreaterThan(40)
    const exported = parseJson<{ tools: unknown[] }>(await run(['tools', 'export', '--format', 'openai', '--json']))
    expect(exported.tools).toHaveLength(manifest.tools.length)
    const skill = parseJson<{ toolCount: number }>(await run(['tools', 'skill', '--json']))
    expect(skill.toolCount).toBe(manifest.tools.length)
  })
})
