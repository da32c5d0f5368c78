import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { MkError } from '../errors.js'
import { describeIssues } from '../validation.js'
import { locateWorkspace } from './locate.js'
import { configSchema, type Config } from './schema.js'
import type { Workspace } from './workspace.js'

async function readConfigFile(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new MkError('INVALID_INPUT', `cannot read config file ${path}: ${(error as Error).message}`, { details: { file: path } })
  })
  if (text.trim() === '') return {}
  // YAML is a superset of JSON, so one parser reads every config file name.
  const { load } = await import('js-yaml')
  try {
    return load(text) ?? {}
  } catch (error) {
    const { reason, mark } = error as { reason?: string; mark?: { line: number } }
    const line = mark === undefined ? undefined : mark.line + 1
    throw new MkError('INVALID_INPUT', `${path}${line === undefined ? '' : `:${line}`}: malformed config: ${reason ?? (error as Error).message}`, {
      details: { file: path, line },
    })
  }
}

export function validateConfig(raw: unknown, file: string): Config {
  const parsed = configSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const problems = describeIssues(parsed.error.issues, raw)
  const first = problems[0]
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
  throw new MkError('INVALID_INPUT', `${file}: ${first?.message ?? 'invalid config'}${more}`, { details: { file, problems } })
}

export interface LoadWorkspaceOptions {
  cwd: string
  env: NodeJS.ProcessEnv
}

export async function loadWorkspace({ cwd, env }: LoadWorkspaceOptions): Promise<Workspace> {
  const start = resolve(cwd)
  if (!existsSync(start)) {
    throw new MkError('INVALID_INPUT', `working directory ${start} does not exist`, { details: { cwd: start } })
  }
  const { root, configPath, stateDir } = locateWorkspace(start)
  const config = configPath === undefined ? validateConfig({}, '(defaults)') : validateConfig(await readConfigFile(configPath), configPath)
  const mkHome = resolve(env.MK_HOME !== undefined && env.MK_HOME !== '' ? env.MK_HOME : join(homedir(), '.mk'))
  return { root, configPath, config, mkHome, stateDir }
}
