import { appendFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MkError } from '../../../src/errors.js'
import { FileTooLargeError, maxRulesFileBytes, readRulesText } from '../../../src/fs/read-capped.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-read-capped-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('readRulesText', () => {
  it('reads a file of exactly the cap, UTF-8 included', async () => {
    const file = join(dir, 'AGENTS.md')
    const text = `${'é'.repeat(10)}${'x'.repeat(80)}`
    writeFileSync(file, text)
    expect(await readRulesText(file, 'AGENTS.md', Buffer.byteLength(text))).toBe(text)
  })

  it('refuses a file over the cap with an INVALID_INPUT naming the file as shown and the cap', async () => {
    const file = join(dir, 'AGENTS.md')
    writeFileSync(file, 'x'.repeat(101))
    const error = await readRulesText(file, 'docs/AGENTS.md', 100).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FileTooLargeError)
    expect(error).toBeInstanceOf(MkError)
    expect((error as MkError).code).toBe('INVALID_INPUT')
    expect((error as MkError).message).toBe('docs/AGENTS.md is over 100 bytes, the most mk reads of a knowledge or rules file; split it into smaller files')
  })

  it('has a cap of 256 KiB, and says so in KiB', async () => {
    const file = join(dir, 'CLAUDE.md')
    writeFileSync(file, Buffer.alloc(maxRulesFileBytes, 'a'))
    expect((await readRulesText(file, 'CLAUDE.md')).length).toBe(maxRulesFileBytes)
    appendFileSync(file, 'a')
    await expect(readRulesText(file, 'CLAUDE.md')).rejects.toThrow('CLAUDE.md is over 256 KiB')
  })

  it('passes on other read errors as they are', async () => {
    await expect(readRulesText(join(dir, 'missing.md'), 'missing.md')).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
