import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const commandsDir = fileURLToPath(new URL('../../../commands/', import.meta.url))
const commandFiles = readdirSync(commandsDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))

interface CommandClass {
  args?: Record<string, unknown>
  flags?: Record<string, { multiple?: boolean; multipleNonGreedy?: boolean }>
}

describe('command flags', () => {
  // `mk memory add --tag db "text"`: a greedy repeatable flag would take the text as a second tag.
  it.each(commandFiles)('%s: a command with arguments has only one-value-per-flag repeatable flags', async (file) => {
    const command = ((await import(`${commandsDir}${file}`)) as { default: CommandClass }).default
    if (Object.keys(command.args ?? {}).length === 0) return
    const greedy = Object.entries(command.flags ?? {}).filter(([, flag]) => flag.multiple === true && flag.multipleNonGreedy !== true)
    expect(greedy.map(([name]) => name)).toEqual([])
  })
})
