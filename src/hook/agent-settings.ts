import { MkError } from '../errors.js'

export const hookAgents = ['claude', 'cursor'] as const
export type HookAgent = (typeof hookAgents)[number]

/** Where each agent reads its hooks, relative to the project root. */
export const settingsFile: Readonly<Record<HookAgent, string>> = { claude: '.claude/settings.json', cursor: '.cursor/hooks.json' }

/** The events mk answers, per agent. */
export const hookEvents: Readonly<Record<HookAgent, readonly string[]>> = {
  claude: ['PreToolUse', 'UserPromptSubmit', 'SessionStart'],
  cursor: ['beforeShellExecution', 'beforeMCPExecution', 'afterFileEdit'],
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

/** A hook command mk wrote: `<launcher> hook claude` or `<launcher> hook cursor`. */
const isMkCommand = (agent: HookAgent, command: unknown): boolean => typeof command === 'string' && new RegExp(`(^|\\s)hook ${agent}(\\s|$)`).test(command)

function eventList(hooks: Json, event: string, file: string): unknown[] {
  const list = hooks[event] ?? []
  if (!Array.isArray(list))
    throw new MkError('INVALID_INPUT', `${file}: hooks.${event} is not a list`, { details: { file, hint: 'fix the file by hand, then install again' } })
  return list
}

/** Claude Code: one matcher group per event holding mk's command; groups of other hooks stay as they are. */
function mergeClaude(hooks: Json, command: string, file: string): void {
  for (const event of hookEvents.claude) {
    const kept = eventList(hooks, event, file).flatMap((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return [group]
      const others = group.hooks.filter((hook) => !(isObject(hook) && isMkCommand('claude', hook.command)))
      if (others.length === group.hooks.length) return [group]
      return others.length === 0 ? [] : [{ ...group, hooks: others }]
    })
    const entry = { type: 'command', command }
    hooks[event] = [...kept, event === 'PreToolUse' ? { matcher: '*', hooks: [entry] } : { hooks: [entry] }]
  }
}

/** Cursor: one entry per event with mk's command; other entries stay as they are. */
function mergeCursor(hooks: Json, command: string, file: string): void {
  for (const event of hookEvents.cursor) {
    const kept = eventList(hooks, event, file).filter((entry) => !(isObject(entry) && isMkCommand('cursor', entry.command)))
    hooks[event] = [...kept, { command }]
  }
}

/**
 * The agent's settings with mk's hook entries added, everything else kept: other hooks, other settings,
 * the order of keys. Installing twice gives the same file; a different launcher replaces mk's own entries.
 */
export function mergeHookSettings(agent: HookAgent, existingText: string | undefined, command: string): { text: string; changed: boolean } {
  const file = settingsFile[agent]
  let settings: Json = agent === 'cursor' ? { version: 1 } : {}
  if (existingText !== undefined && existingText.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(existingText)
    } catch (error) {
      throw new MkError('INVALID_INPUT', `${file}: not valid JSON (${(error as Error).message}); mk does not rewrite a file it cannot read`, {
        details: { file, hint: 'fix the JSON, then install again' },
      })
    }
    if (!isObject(parsed)) throw new MkError('INVALID_INPUT', `${file}: expected a JSON object`, { details: { file } })
    settings = parsed
  }
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw new MkError('INVALID_INPUT', `${file}: "hooks" is not an object`, { details: { file } })
  const hooks: Json = { ...(settings.hooks ?? {}) }
  if (agent === 'claude') mergeClaude(hooks, command, file)
  else mergeCursor(hooks, command, file)
  const text = `${JSON.stringify({ ...settings, hooks }, null, 2)}\n`
  return { text, changed: text !== existingText }
}
