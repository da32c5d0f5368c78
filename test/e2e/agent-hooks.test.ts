import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMk } from '../helpers/mk.js'
import { claudeFixtures, cursorFixtures, hookFiles, hookKnowledge, recorded } from '../helpers/hook-workspace.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* Issue 28 end to end: recorded Claude Code hook inputs fed to the built `mk hook claude` (run npm run build first). */

let workspace: TempWorkspace
beforeAll(async () => {
  workspace = await makeWorkspace({ ...hookKnowledge, ...hookFiles })
})
afterAll(async () => workspace.cleanup())

async function hook(name: string, root = workspace.root, mkHome = workspace.mkHome) {
  const run = await runMk(['hook', 'claude'], { cwd: root, env: { MK_HOME: mkHome }, input: await recorded(name, root) })
  expect(run.exitCode, run.stderr).toBe(0)
  return run.stdout === '' ? undefined : (JSON.parse(run.stdout) as { hookSpecificOutput: Record<string, string> })
}

async function denial(name: string): Promise<string> {
  const answer = await hook(name)
  expect(answer?.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' })
  return answer?.hookSpecificOutput.permissionDecisionReason ?? ''
}

describe('mk hook claude on PreToolUse edits', () => {
  it('denies a Write that adds console.log under the accepted ADR, naming the constraint, the decision and how to comply', async () => {
    const reason = await denial('write-console-log')
    expect(reason).toContain('src/a.ts')
    expect(reason).toContain('no-console-log (adr-0001-logging "Log through the logger")')
    expect(reason).toContain('Log through the logger in src/log.ts, not console.log.')
    expect(reason.length).toBeLessThan(600)
  })

  it('denies an Edit that adds a violation to a clean file', async () => {
    expect(await denial('edit-console-log')).toContain('src/clean.ts')
  })

  it('applies MultiEdit edits in order with replace_all, and denies the result; the same file edited cleanly passes', async () => {
    const reason = await denial('multiedit-replace-all')
    expect(reason).toContain('src/debug.ts')
    expect(reason.match(/no-console-log/g)).toHaveLength(2)
    expect(await hook('multiedit-clean')).toBeUndefined()
  })

  it('lets an edit of a file that already violates pass when it adds nothing, and denies one that adds another case', async () => {
    expect(await hook('edit-already-violating')).toBeUndefined()
    expect(await denial('edit-already-violating-adds')).toContain('src/legacy.ts')
  })

  it('denies a package.json change that adds a forbidden dependency', async () => {
    const reason = await denial('manifest-adds-moment')
    expect(reason).toContain('no-moment (adr-0002-dates "Dates with date-fns")')
    expect(reason).toContain('moment')
  })

  it('denies a NotebookEdit whose cell adds a violation', async () => {
    expect(await denial('notebook-edit')).toContain('src/explore.ipynb')
  })

  it('lets writes outside every constraint scope and outside the workspace pass', async () => {
    expect(await hook('write-outside-scope')).toBeUndefined()
    expect(await hook('write-outside-workspace')).toBeUndefined()
  })

  it('refuses (exit 2) an edit input it cannot read, rather than letting it through', async () => {
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: 'src/a.ts', old_string: 1 } })
    const run = await runMk(['hook', 'claude'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome }, input })
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toContain('tool_input.old_string: expected a string')
  })
})

describe('mk hook claude on context events', () => {
  it('adds the MUST rules that always apply at SessionStart, cited, and not the path-scoped ones', async () => {
    const answer = await hook('session-start')
    const context = answer?.hookSpecificOutput.additionalContext ?? ''
    expect(answer?.hookSpecificOutput.hookEventName).toBe('SessionStart')
    expect(context).toContain('Services MUST log failures through the shared logger')
    expect(context).toContain('[knowledge/adr/adr-0001-logging.md#decision]')
    expect(context).not.toContain('date-fns')
  })

  it('adds the directive block for the prompt at UserPromptSubmit', async () => {
    const answer = await hook('user-prompt-submit')
    expect(answer?.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit')
    expect(answer?.hookSpecificOutput.additionalContext).toContain('shared logger')
  })
})

describe('mk hook claude in a workspace without mk knowledge', () => {
  it('answers nothing for every event, and exits 0', async () => {
    const bare = await makeWorkspace({ 'src/a.ts': 'export {}\n' })
    try {
      for (const name of ['write-console-log', 'user-prompt-submit', 'session-start']) expect(await hook(name, bare.root, bare.mkHome)).toBeUndefined()
    } finally {
      await bare.cleanup()
    }
  })
})

describe('mk hook cursor', () => {
  const cursor = async (name: string) => {
    const input = await recorded(name, workspace.root, cursorFixtures)
    const run = await runMk(['hook', 'cursor'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome }, input })
    expect(run.exitCode, run.stderr).toBe(0)
    return { answer: JSON.parse(run.stdout) as Record<string, string>, stderr: run.stderr }
  }

  it('refuses a shell command the policy rules deny, in the permission format, and lets other MCP tools pass', async () => {
    await workspace.write(
      'knowledge/rules/no-shell.md',
      '---\ntype: rule\ntitle: No shell\nsummary: Agents may not run shell commands here\nthen: {tool: {deny: [Shell]}}\n---\n',
    )
    try {
      const { answer } = await cursor('before-shell-execution')
      expect(answer).toEqual({
        permission: 'deny',
        user_message: 'mk policy rules: Shell: denied by no-shell (Agents may not run shell commands here)',
        agent_message: 'mk policy rules: Shell: denied by no-shell (Agents may not run shell commands here)',
      })
      expect((await cursor('before-mcp-execution')).answer).toEqual({})
    } finally {
      await rm(join(workspace.root, 'knowledge/rules'), { recursive: true, force: true })
    }
  })

  it('reports the violations of a file after an edit, since Cursor cannot refuse one', async () => {
    const { answer, stderr } = await cursor('after-file-edit')
    expect(answer).toEqual({})
    expect(stderr).toContain('src/legacy.ts:2 breaks no-console-log (adr-0001-logging)')
  })
})

describe('mk hook install --agent', () => {
  it('merges the Claude Code hooks into an existing settings file, keeping other hooks and settings, and changes nothing the second time', async () => {
    const other = { matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/audit.sh' }] }
    const settings = {
      model: 'opus',
      permissions: { allow: ['Bash(npm test)'] },
      hooks: { PreToolUse: [other], Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
    }
    const target = await makeWorkspace({ '.claude/settings.json': JSON.stringify(settings, null, 2) })
    try {
      const install = () => runMk(['hook', 'install', '--agent', 'claude', '--json'], { cwd: target.root, env: { MK_HOME: target.mkHome } })
      const first = await install()
      expect(first.exitCode, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toMatchObject({ path: '.claude/settings.json', action: 'updated', command: 'npx mk-knowledge hook claude' })
      const written = await readFile(join(target.root, '.claude/settings.json'), 'utf8')
      const mkEntry = { type: 'command', command: 'npx mk-knowledge hook claude' }
      expect(JSON.parse(written)).toEqual({
        ...settings,
        hooks: {
          PreToolUse: [other, { matcher: '*', hooks: [mkEntry] }],
          Stop: settings.hooks.Stop,
          UserPromptSubmit: [{ hooks: [mkEntry] }],
          SessionStart: [{ hooks: [mkEntry] }],
        },
      })
      const second = await install()
      expect(JSON.parse(second.stdout)).toMatchObject({ action: 'unchanged' })
      expect(await readFile(join(target.root, '.claude/settings.json'), 'utf8')).toBe(written)
    } finally {
      await target.cleanup()
    }
  })

  it('writes Cursor hooks next to existing ones, replacing only its own entry when the launcher changes', async () => {
    const target = await makeWorkspace({
      '.cursor/hooks.json': JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: 'npx prettier --write' }] } }),
    })
    try {
      const install = (...extra: string[]) =>
        runMk(['hook', 'install', '--agent', 'cursor', ...extra, '--json'], { cwd: target.root, env: { MK_HOME: target.mkHome } })
      expect((await install()).exitCode).toBe(0)
      const run = await install('--launcher', 'mk')
      expect(JSON.parse(run.stdout)).toMatchObject({ action: 'updated', command: 'mk hook cursor' })
      expect(JSON.parse(await readFile(join(target.root, '.cursor/hooks.json'), 'utf8'))).toEqual({
        version: 1,
        hooks: {
          afterFileEdit: [{ command: 'npx prettier --write' }, { command: 'mk hook cursor' }],
          beforeShellExecution: [{ command: 'mk hook cursor' }],
          beforeMCPExecution: [{ command: 'mk hook cursor' }],
        },
      })
    } finally {
      await target.cleanup()
    }
  })

  it('refuses to rewrite a settings file that is not JSON', async () => {
    const target = await makeWorkspace({ '.claude/settings.json': '{ "hooks": ' })
    try {
      const run = await runMk(['hook', 'install', '--agent', 'claude'], { cwd: target.root, env: { MK_HOME: target.mkHome } })
      expect(run.exitCode).toBe(2)
      expect(run.stderr).toContain('.claude/settings.json: not valid JSON')
      expect(await readFile(join(target.root, '.claude/settings.json'), 'utf8')).toBe('{ "hooks": ')
    } finally {
      await target.cleanup()
    }
  })
})

describe('mk rules adherence', () => {
  it('counts per constraint the attempts, the refusals and the violations in the tree, and per directive how often it was served', async () => {
    const transcript = join(workspace.root, 'session.jsonl')
    await workspace.write('session.jsonl', (await readFile(`${claudeFixtures}transcript.jsonl`, 'utf8')).replaceAll('"/repo', `"${workspace.root}`))
    const run = await runMk(['rules', 'adherence', '--transcript', transcript, '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(run.exitCode, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as {
      transcripts: number
      toolCalls: number
      constraints: unknown[]
      directives: { itemId: string; served: number }[]
    }
    expect(report).toMatchObject({ transcripts: 1, toolCalls: 3 })
    expect(report.constraints).toEqual([{ constraintId: 'no-console-log', knowledgeItemId: 'adr-0001-logging', attempts: 2, denied: 1, inTree: 1 }])
    expect(report.directives).toEqual([expect.objectContaining({ itemId: 'adr-0001-logging', served: 1 })])
  })
})

describe('mk hook claude started in a subfolder', () => {
  it('checks against the project Claude Code names in CLAUDE_PROJECT_DIR, not the folder the agent cd-ed into', async () => {
    const input = await recorded('write-console-log', workspace.root)
    const run = await runMk(['hook', 'claude'], {
      cwd: join(workspace.root, 'src'),
      env: { MK_HOME: workspace.mkHome, CLAUDE_PROJECT_DIR: workspace.root },
      input,
    })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } })
  })
})
