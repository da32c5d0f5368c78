import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  currentTierTable,
  formatTierTable,
  parseTierTable,
  readTierTable,
  tierTableFile,
  tierTableProblems,
  writeTierTable,
} from '../../../src/memory/tier-table.js'

const a = 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'
const b = 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C4'

let dir: string | undefined
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

describe('tier table', () => {
  it('writes one sorted line per memory and reads back what it wrote', () => {
    const text = formatTierTable(
      new Map([
        [b, 'archive'],
        [a, 'warm'],
      ]),
    )
    expect(text.split('\n').filter((line) => !line.startsWith('#'))).toEqual([`${a} warm`, `${b} archive`, ''])
    expect(parseTierTable(text)).toEqual(
      new Map([
        [a, 'warm'],
        [b, 'archive'],
      ]),
    )
  })

  it('skips lines a bad merge left behind instead of failing', () => {
    const text = `<<<<<<< HEAD\n${a} warm\n=======\n${a} lukewarm\n${b} cold extra\n>>>>>>> branch\n\n${b} cold\n`
    expect(parseTierTable(text)).toEqual(
      new Map([
        [a, 'warm'],
        [b, 'cold'],
      ]),
    )
  })

  it('names each line it skips, with its number, for lint', () => {
    const text = `# header\n${a} warm\n<<<<<<< HEAD\n${b} lukewarm\n\n${b} cold extra\n`
    expect(tierTableProblems(text)).toEqual([
      { line: 3, message: '"<<<<<<< HEAD" is not "<memory id> <tier>"' },
      { line: 4, message: `${b}: "lukewarm" is not one of hot, warm, cold, archive` },
      { line: 6, message: `"${b} cold extra" is not "<memory id> <tier>"` },
    ])
  })

  it('reads a folder without a table as empty, and sees a rewrite at once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mk-tiers-'))
    const folder = { dir }
    expect(await readTierTable(folder)).toEqual(new Map())
    expect(await currentTierTable(folder)).toEqual(new Map())
    await writeTierTable(folder, new Map([[a, 'cold']]))
    expect(await currentTierTable(folder)).toEqual(new Map([[a, 'cold']]))
    await writeTierTable(folder, new Map([[a, 'warm']]))
    expect((await currentTierTable(folder)).get(a)).toBe('warm')
    await writeFile(tierTableFile(folder), `${a} archive\n${b} hot\n`)
    expect(await currentTierTable(folder)).toEqual(
      new Map([
        [a, 'archive'],
        [b, 'hot'],
      ]),
    )
  })
})
