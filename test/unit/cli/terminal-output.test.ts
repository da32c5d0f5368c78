import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { progressReporter } from '../../../src/hosts/cli/progress.js'
import { writeJson, writeText } from '../../../src/hosts/cli/render.js'
import { displayStyle, terminalStyle } from '../../../src/hosts/cli/style.js'
import { stripTerminalControls } from '../../../src/hosts/cli/terminal-controls.js'

/** A stream that records what is written and says whether it is a terminal. */
function stream(isTTY: boolean): { stream: NodeJS.WriteStream; written: () => string } {
  let written = ''
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString()
      done()
    },
  })
  return { stream: Object.assign(writable, { isTTY }) as unknown as NodeJS.WriteStream, written: () => written }
}

describe('stripTerminalControls (issue 11.11)', () => {
  it.each([
    ['CSI colour', 'a\u001b[31mred\u001b[0m', 'ared'],
    ['CSI with private parameters', '\u001b[?25lhidden cursor', 'hidden cursor'],
    ['8-bit CSI', 'x\u009b2Jy', 'xy'],
    ['OSC title ended by BEL', '\u001b]0;title\u0007text', 'text'],
    ['OSC hyperlink ended by ST', '\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['DCS', '\u001bPq#0\u001b\\after', 'after'],
    ['APC', '\u001b_payload\u001b\\after', 'after'],
    ['two-byte ESC sequences', '\u001bc\u001b7\u001b(Bok', 'ok'],
    ['C0 controls', 'a\rb\bc\u0007d\u0000e\u000bf\u000cg', 'abcdefg'],
    ['DEL and C1', 'a\u007fb\u0085c\u009cd', 'abcd'],
    ['bidi overrides and isolates', '\u202eevil\u202c \u2066x\u2069', 'evil x'],
  ])('removes %s', (_name, input, expected) => {
    expect(stripTerminalControls(input)).toBe(expected)
  })

  it('keeps line breaks, tabs, bidi marks and ordinary Unicode', () => {
    const text = 'line one\n\tindented — ünïcödé 日本語 \u200f\u200e emoji 🎉'
    expect(stripTerminalControls(text)).toBe(text)
  })

  it('never swallows the text after an unterminated string sequence', () => {
    expect(stripTerminalControls('\u001b]0;no terminator\nnext line')).toBe('0;no terminator\nnext line')
  })
})

describe('writeText', () => {
  it('keeps mk colours on a terminal and strips those that come with data', () => {
    const out = stream(true)
    writeText(out.stream, {}, `${terminalStyle.red('Error')} data \u001b[32mgreen\u001b[0m`)
    expect(out.written()).toBe('\u001b[31mError\u001b[39m data green\n')
  })

  it('writes no colour at all with NO_COLOR or off a terminal', () => {
    for (const [isTTY, env] of [
      [true, { NO_COLOR: '1' }],
      [false, {}],
    ] as const) {
      const out = stream(isTTY)
      writeText(out.stream, env, `${terminalStyle.bold(terminalStyle.dim('x'))} \u001b]0;t\u0007y`)
      expect(out.written()).toBe('x y\n')
    }
  })

  it('writes no colour on a terminal that says TERM=dumb (issue 26.8)', () => {
    const out = stream(true)
    writeText(out.stream, { TERM: 'dumb' }, terminalStyle.red('x'))
    expect(out.written()).toBe('x\n')
  })

  it('honours FORCE_COLOR as Node does: colour in a pipe, over NO_COLOR and TERM=dumb; 0 and false forbid it (issue 26.8)', () => {
    for (const env of [{ FORCE_COLOR: '1' }, { FORCE_COLOR: '' }, { FORCE_COLOR: '3', NO_COLOR: '1', TERM: 'dumb' }]) {
      const out = stream(false)
      writeText(out.stream, env, terminalStyle.red('x'))
      expect(out.written(), JSON.stringify(env)).toBe('\u001b[31mx\u001b[39m\n')
    }
    for (const env of [{ FORCE_COLOR: '0' }, { FORCE_COLOR: 'false' }]) {
      const out = stream(true)
      writeText(out.stream, env, terminalStyle.red('x'))
      expect(out.written(), JSON.stringify(env)).toBe('x\n')
    }
  })

  it('reopens an outer style after an inner one closes the same attribute, like chalk', () => {
    const out = stream(true)
    writeText(out.stream, {}, terminalStyle.bold(`a ${terminalStyle.dim('b')} c`))
    expect(out.written()).toBe('\u001b[1ma \u001b[2mb\u001b[22m\u001b[1m c\u001b[22m\n')
  })

  it('gives data no way to forge mk styling: a look-alike marker stays text', () => {
    const out = stream(true)
    writeText(out.stream, {}, 'x\ue00031\ue001y')
    expect(out.written()).toBe('x\ue00031\ue001y\n')
  })
})

describe('displayStyle', () => {
  it('renders a display for a stream that shows no colour without style markers, and with them where colour shows', () => {
    // A piped check of 50,000 files printed 15 MB of text; with markers it was built twice as large and then stripped of them.
    expect(displayStyle(stream(false).stream, {}).dim('x')).toBe('x')
    expect(displayStyle(stream(true).stream, { NO_COLOR: '1' }).red('x')).toBe('x')
    for (const [isTTY, env] of [
      [true, {}],
      [false, { FORCE_COLOR: '1' }],
    ] as const) {
      const out = stream(isTTY)
      writeText(out.stream, env, displayStyle(out.stream, env).red('x'))
      expect(out.written()).toBe('\u001b[31mx\u001b[39m\n')
    }
  })
})

describe('writeJson', () => {
  it('keeps the exact data and escapes what JSON.stringify leaves raw', () => {
    const out = stream(true)
    const value = { content: 'a\u001b[31m\u009b2J\u007f\u202eevil\n' }
    writeJson(out.stream, value)
    expect(out.written()).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/)
    expect(out.written()).toContain('\\u009b')
    expect(JSON.parse(out.written())).toEqual(value)
  })
})

describe('stripTerminalControls on hostile input', () => {
  it('strips a long run of unterminated string introducers (each scan stops at the next one)', () => {
    for (const introducer of ['\u009d', '\u0090', '\u001b]', '\u001bP']) {
      expect(stripTerminalControls(`${introducer.repeat(50_000)}${'x'.repeat(50_000)}`)).toBe('x'.repeat(50_000))
    }
  })
})

describe('progressReporter (issue 26.8)', () => {
  it('writes plain lines, not a live bar, on a terminal that says TERM=dumb', async () => {
    const out = stream(true)
    Object.assign(out.stream, { columns: 80, rows: 24 })
    const progress = progressReporter(out.stream, { TERM: 'dumb' })
    progress.report({ phase: 'embedding', done: 5, total: 10 })
    await progress.finish()
    expect(out.written()).toBe('embedding: 5/10\n')
  })
})
