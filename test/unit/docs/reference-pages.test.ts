import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { referencePages, renderCommandsPage, type OclifManifest } from '../../../scripts/reference-pages.js'
import { packagedManifest } from '../../../scripts/llm-tooling-files.js'
import { tools } from '../../../src/tools/registry.js'

const root = new URL('../../../', import.meta.url)

async function pagesFromCode(): Promise<Record<string, string>> {
  // oclif.manifest.json is written by the build (npm run build), as the e2e tests need it too.
  const commands = JSON.parse(await readFile(new URL('oclif.manifest.json', root), 'utf8')) as OclifManifest
  return referencePages({
    tools: await packagedManifest(new URL('llm-tooling/', root).pathname),
    commands,
    mkrcExample: await readFile(new URL('.mkrc.example', root), 'utf8'),
  })
}

// Issue 26.7: the reference pages are generated from what the code knows, so they cannot drift.
describe('docs/reference/', () => {
  it('matches what the code generates, byte for byte (run `npm run docs:reference` when this fails)', async () => {
    for (const [name, text] of Object.entries(await pagesFromCode())) {
      const committed = await readFile(new URL(`docs/reference/${name}`, root), 'utf8').catch(() => `(docs/reference/${name} is missing)`)
      expect(committed, `docs/reference/${name} is stale`).toBe(text)
    }
  })

  it('names every tool of the registry and every command', async () => {
    const pages = await pagesFromCode()
    for (const tool of tools) expect(pages['tools.md']).toContain(`## ${tool.name}\n`)
    const commands = JSON.parse(await readFile(new URL('oclif.manifest.json', root), 'utf8')) as OclifManifest
    for (const id of Object.keys(commands.commands)) expect(pages['commands.md']).toContain(`## \`mk ${id.replaceAll(':', ' ')}`)
  })

  it('shows a changed flag, so a stale page would fail the first test', () => {
    const command = {
      id: 'memory:add',
      summary: 'Add a memory',
      args: {},
      flags: { tag: { name: 'tag', type: 'option' as const, multiple: true, description: 'A tag.' } },
    }
    const before = renderCommandsPage({ commands: { 'memory:add': command } })
    const after = renderCommandsPage({ commands: { 'memory:add': { ...command, flags: { tag: { ...command.flags.tag, description: 'A label.' } } } } })
    expect(before).toContain('| `--tag` | value (repeatable) | A tag. |')
    expect(after).not.toBe(before)
  })
})
