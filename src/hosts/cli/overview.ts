import { Config } from '@oclif/core/config'

/** What `mk --json` prints: the program and its commands, for an agent finding its way. */
export async function commandOverview(dir: string): Promise<{ name: string; version: string; help: string; commands: { command: string; summary: string }[] }> {
  const config = await Config.load(dir)
  const commands = config.commands
    .filter((command) => command.hidden !== true)
    .map((command) => ({ command: `${config.bin} ${command.id.replaceAll(':', ' ')}`, summary: command.summary ?? command.description?.split('\n')[0] ?? '' }))
    .sort((a, b) => a.command.localeCompare(b.command))
  return { name: config.bin, version: config.version, help: `${config.bin} COMMAND --help shows a command's flags; every command takes --json`, commands }
}
