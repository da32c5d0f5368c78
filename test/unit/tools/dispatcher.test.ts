import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { validateConfig } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { Resources } from '../../../src/tools/context.js'
import { defineTool, type AnyTool } from '../../../src/tools/define.js'
import { dispatch, type CallerContext } from '../../../src/tools/dispatcher.js'
import { plainStyle } from '../../../src/style.js'

function caller(overrides: Partial<CallerContext> = {}): CallerContext {
  return {
    workspace: { root: '/ws', configPath: undefined, config: validateConfig({}, 'test'), mkHome: '/home/.mk', stateDir: '/ws/.mk' },
    env: {},
    cwd: '/ws',
    runtime: runtimeEnvFrom({}),
    style: plainStyle,
    resources: new Resources(),
    ...overrides,
  }
}

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Echo a message',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({ message: z.string().min(1), times: z.number().int().min(1).max(3).default(1) }),
  output: z.strictObject({ echoed: z.string() }),
  examples: [{ title: 'echo', input: { message: 'hi' }, output: { echoed: 'hi' } }],
  async run(input) {
    return { output: { echoed: input.message.repeat(input.times) }, display: input.message }
  },
}) as unknown as AnyTool

const writer = { ...echo, name: 'writer', tier: 'workspace' } as AnyTool
const elevated = { ...echo, name: 'wiper', tier: 'elevated' } as AnyTool

describe('dispatch', () => {
  it('runs a tool and returns its output and display', async () => {
    const outcome = await dispatch(echo, { message: 'ab', times: 2 }, caller())
    expect(outcome).toMatchObject({ ok: true, output: { echoed: 'abab' }, display: 'ab', exitCode: 0 })
  })

  it("renders a tool's display from its output, in the caller's style, when the tool renders", async () => {
    const rendered = defineTool({
      ...echo,
      name: 'rendered',
      async run(input: { message: string }) {
        return { output: { echoed: input.message } }
      },
      render: (output: { echoed: string }, style) => style.bold(`said ${output.echoed}`),
    }) as unknown as AnyTool
    const bold = { ...plainStyle, bold: (text: string) => `*${text}*` }
    expect(await dispatch(rendered, { message: 'hi' }, caller({ style: bold }))).toMatchObject({ ok: true, output: { echoed: 'hi' }, display: '*said hi*' })
    expect(await dispatch(rendered, { message: 'hi' }, caller({ displayOnly: true }))).toMatchObject({ ok: true, output: undefined, display: 'said hi' })
  })

  it('never returns a key the output schema does not name', async () => {
    const leaky = { ...echo, run: async () => ({ output: { echoed: 'x', home: '/home/user/.ssh' }, display: '' }) } as AnyTool
    const outcome = await dispatch(leaky, { message: 'x' }, caller())
    expect(outcome).toMatchObject({ ok: false, error: { errorCode: 'INTERNAL_ERROR' } })
    expect(JSON.stringify(outcome)).not.toContain('.ssh')
  })

  it('neither checks nor returns the output of a caller that shows only the display', async () => {
    const leaky = { ...echo, run: async () => ({ output: { echoed: 'x', home: '/home/user/.ssh' }, display: 'shown' }) } as AnyTool
    const outcome = await dispatch(leaky, { message: 'x' }, caller({ displayOnly: true }))
    expect(outcome).toEqual({ ok: true, output: undefined, display: 'shown', exitCode: 0, warnings: [], artifacts: [] })
  })

  it('names the field, what was expected and what was received on bad input', async () => {
    const outcome = await dispatch(echo, { message: 42 }, caller())
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error).toMatchObject({ success: false, errorCode: 'INVALID_INPUT', retryable: false })
    expect(outcome.error.details?.problems).toEqual([{ path: 'message', expected: 'string', received: '42', message: 'message: expected string, received 42' }])
  })

  it('reports unknown keys and out-of-range numbers', async () => {
    const outcome = await dispatch(echo, { message: 'x', times: 9, colour: 'red' }, caller())
    if (outcome.ok) throw new Error('expected an error')
    const paths = (outcome.error.details?.problems as { path: string }[]).map((problem) => problem.path).sort()
    expect(paths).toEqual(['colour', 'times'])
  })

  it('names every unknown key of an input with several, never (root)', async () => {
    const outcome = await dispatch(echo, { message: 'x', colour: 'red', flavour: 'salt' }, caller())
    if (outcome.ok) throw new Error('expected an error')
    const paths = (outcome.error.details?.problems as { path: string }[]).map((problem) => problem.path).sort()
    expect(paths).toEqual(['colour', 'flavour'])
  })

  it('refuses tools above read_only in read-only mode with FORBIDDEN', async () => {
    const runtime = runtimeEnvFrom({ MK_READ_ONLY: '1' })
    const outcome = await dispatch(writer, { message: 'x' }, caller({ runtime }))
    expect(outcome).toMatchObject({ ok: false, error: { errorCode: 'FORBIDDEN' } })
    expect((await dispatch(echo, { message: 'x' }, caller({ runtime }))).ok).toBe(true)
  })

  it('asks for approval before an elevated tool and refuses when nobody can approve', async () => {
    expect(await dispatch(elevated, { message: 'x' }, caller())).toMatchObject({ ok: false, error: { errorCode: 'FORBIDDEN' } })
    expect(await dispatch(elevated, { message: 'x' }, caller({ approve: async () => false }))).toMatchObject({ ok: false, error: { errorCode: 'FORBIDDEN' } })
    expect((await dispatch(elevated, { message: 'x' }, caller({ approve: async () => true }))).ok).toBe(true)
  })

  it('times out slow tools with a retryable TIMEOUT and aborts their signal', async () => {
    let aborted = false
    const slow = {
      ...echo,
      timeoutMs: 20,
      run: (_input: unknown, ctx: { signal: AbortSignal }) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = true
            resolve({ output: { echoed: 'late' }, display: '' })
          })
        }),
    } as unknown as AnyTool
    const outcome = await dispatch(slow, { message: 'x' }, caller())
    expect(outcome).toMatchObject({ ok: false, error: { errorCode: 'TIMEOUT', retryable: true } })
    expect(aborted).toBe(true)
  })

  it("lets the server's own unbounded call (its warm-up) run past the tool's limit", async () => {
    const slow = {
      ...echo,
      timeoutMs: 20,
      run: () => new Promise((resolve) => setTimeout(() => resolve({ output: { echoed: 'done' }, display: '' }), 100)),
    } as unknown as AnyTool
    expect(await dispatch(slow, { message: 'x' }, caller({ unbounded: true }))).toMatchObject({ ok: true, output: { echoed: 'done' } })
    expect(await dispatch(slow, { message: 'x' }, caller())).toMatchObject({ ok: false, error: { errorCode: 'TIMEOUT' } })
  })

  it('reports a call its caller cancelled as cancelled (TIMEOUT, details.cancelled), never INTERNAL_ERROR (issue 11.16)', async () => {
    const abortable = {
      ...echo,
      run: (_input: unknown, ctx: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')))),
    } as unknown as AnyTool
    const cancel = new AbortController()
    const outcome = dispatch(abortable, { message: 'x' }, caller({ cancel: cancel.signal }))
    await new Promise((resolve) => setTimeout(resolve, 10))
    cancel.abort('the user moved on')
    expect(await outcome).toMatchObject({
      ok: false,
      error: {
        errorCode: 'TIMEOUT',
        retryable: true,
        message: 'echo was cancelled by the caller before it finished (the user moved on)',
        details: { cancelled: true },
      },
    })
  })

  it('turns an unexpected exception into INTERNAL_ERROR without a stack', async () => {
    const broken = { ...echo, run: async () => Promise.reject(new Error('boom')) } as AnyTool
    const outcome = await dispatch(broken, { message: 'x' }, caller())
    expect(outcome).toMatchObject({ ok: false, error: { errorCode: 'INTERNAL_ERROR', message: 'boom', retryable: false } })
    expect(JSON.stringify(outcome)).not.toContain('at ')
  })
})

describe('INVALID_INPUT for one-or-many fields', () => {
  const layered = {
    ...echo,
    input: z.strictObject({ layer: z.union([z.enum(['project', 'team']), z.array(z.enum(['project', 'team']))]) }),
  } as unknown as AnyTool

  it('names the bad element of a list rather than calling the list wrong', async () => {
    const outcome = await dispatch(layered, { layer: ['team', 'galaxy'] }, caller())
    if (outcome.ok) throw new Error('expected an error')
    expect(outcome.error.details?.problems).toEqual([
      {
        path: 'layer[1]',
        expected: 'one of "project", "team"',
        received: '"galaxy"',
        message: 'layer[1]: expected one of "project", "team", received "galaxy"',
      },
    ])
  })
})
