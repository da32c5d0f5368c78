import { describe, expect, it } from 'vitest'
import { mergeHookSettings } from '../../../src/hook/agent-settings.js'
import { MkError } from '../../../src/errors.js'

describe('mergeHookSettings', () => {
  it('keeps a group that holds mk and another hook, taking only mk out of it', () => {
    const shared = {
      matcher: '*',
      hooks: [
        { type: 'command', command: './audit.sh' },
        { type: 'command', command: 'mk hook claude' },
      ],
    }
    const merged = JSON.parse(mergeHookSettings('claude', JSON.stringify({ hooks: { PreToolUse: [shared] } }), 'npx mk-knowledge hook claude').text) as {
      hooks: Record<string, unknown[]>
    }
    expect(merged.hooks.PreToolUse).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command: './audit.sh' }] },
      { matcher: '*', hooks: [{ type: 'command', command: 'npx mk-knowledge hook claude' }] },
    ])
  })

  it('creates Cursor settings with version 1 and is unchanged the second time', () => {
    const first = mergeHookSettings('cursor', undefined, 'mk hook cursor')
    expect(JSON.parse(first.text)).toMatchObject({ version: 1, hooks: { afterFileEdit: [{ command: 'mk hook cursor' }] } })
    expect(mergeHookSettings('cursor', first.text, 'mk hook cursor').changed).toBe(false)
  })

  it('refuses hooks that are not an object, or an event that is not a list', () => {
    expect(() => mergeHookSettings('claude', '{"hooks": []}', 'mk hook claude')).toThrow(MkError)
    expect(() => mergeHookSettings('claude', '{"hooks": {"PreToolUse": {}}}', 'mk hook claude')).toThrow('hooks.PreToolUse is not a list')
  })
})
