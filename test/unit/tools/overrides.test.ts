import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { llmToolingFiles, packagedManifest, readOverrides } from '../../../scripts/llm-tooling-files.js'
import { MkError } from '../../../src/errors.js'
import { currentManifest, registeredTools } from '../../../src/tools/catalog/registered.js'
import { applyOverrides, parseOverride } from '../../../src/tools/generate/overrides.js'

/* Seed 004's overrides/*.json: hand edits of the manifest that survive regeneration. */

let directory: string | undefined
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true })
  directory = undefined
})

async function toolingWith(files: Record<string, string>): Promise<string> {
  directory = await mkdtemp(join(tmpdir(), 'mk-overrides-'))
  await mkdir(join(directory, 'overrides'))
  for (const [name, text] of Object.entries(files)) await writeFile(join(directory, 'overrides', name), text)
  return directory
}

function refusal(work: () => unknown): MkError {
  try {
    work()
  } catch (error) {
    return error as MkError
  }
  throw new Error('expected a refusal')
}

describe('override files', () => {
  it('change the description, add examples and notes, and reach every generated file', async () => {
    const registry = await currentManifest()
    const before = registry.tools.find((tool) => tool.name === 'memory_search')
    const override = {
      description: 'Search memories by meaning and words; say in a sentence what you look for.',
      examples: [{ ...before?.examples[0], title: 'The same search, as a maintainer documents it' }],
      constraints: { notes: ['Prefer memory_recall when you need the neighbours too.'] },
    }
    const folder = await toolingWith({ 'memory_search.json': JSON.stringify(override), 'README.md': 'not an override' })
    const manifest = await packagedManifest(folder)
    const after = manifest.tools.find((tool) => tool.name === 'memory_search')
    expect(after?.description).toBe(override.description)
    expect(after?.examples).toEqual([...(before?.examples ?? []), override.examples[0]])
    expect(after?.constraints.notes.at(-1)).toBe(override.constraints.notes[0])
    // What mk enforces stays the registry's.
    expect(after?.constraints.rate_limit).toEqual(before?.constraints.rate_limit)
    expect(after?.input_schema).toEqual(before?.input_schema)
    const files = llmToolingFiles(manifest)
    expect(files['SKILL.md']).toContain(override.description)
    expect(files['schemas/memory_search.schema.json']).toBeDefined()
    expect(files['openai.tools.json']).toContain(override.description)
    // Regeneration is stable: the same files give the same bytes.
    expect(llmToolingFiles(await packagedManifest(folder))).toEqual(files)
  })

  it('refuse a field mk enforces from the registry, naming the file and each field', () => {
    const error = refusal(() => parseOverride('memory_search.json', JSON.stringify({ risk: 'low', constraints: { rate_limit: { requests_per_minute: 1e6 } } })))
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toContain('overrides/memory_search.json')
    expect(error.message).toContain('risk')
    expect(error.message).toContain('rate_limit')
  })

  it('refuse a file that is not JSON, names no tool, or carries an example the tool would refuse', async () => {
    expect(refusal(() => parseOverride('memory_add.json', '{')).message).toContain('overrides/memory_add.json is not JSON')
    const tools = await registeredTools()
    const manifest = await currentManifest()
    const unknown = refusal(() => applyOverrides(manifest, new Map([['memory_serch.json', { description: 'typo' }]]), tools))
    expect(unknown.code).toBe('NOT_FOUND')
    expect(unknown.message).toContain('no tool named "memory_serch"')
    const badExample = refusal(() =>
      applyOverrides(manifest, new Map([['memory_add.json', { examples: [{ title: 'bad', input: { contents: 'x' }, output: {} }] }]]), tools),
    )
    expect(badExample.message).toContain('examples[0].input')
  })

  it('are read from overrides/*.json only, and none when the folder is absent', async () => {
    const folder = await toolingWith({ 'knowledge_list.json': '{"title": "List every knowledge item"}', 'notes.txt': 'ignored' })
    expect([...(await readOverrides(folder)).keys()]).toEqual(['knowledge_list.json'])
    expect((await readOverrides(join(folder, 'nothing-here'))).size).toBe(0)
  })
})
