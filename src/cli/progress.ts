import type { ProgressEvent } from '../tools/context.js'

/** The last thing each phase (a source, "index", ...) reported. */
type Lines = Map<string, ProgressEvent>

function describe(event: ProgressEvent): string {
  const count = event.total === undefined || event.total === 0 ? '' : ` ${event.done}/${event.total}`
  return `${event.message ?? ''}${count}`
}

/** Plain progress for logs and pipes: one line whenever a phase says something new. */
function plainProgress(stream: NodeJS.WritableStream): (event: ProgressEvent) => void {
  const last = new Map<string, string>()
  return (event) => {
    if (event.phase === 'done' || event.message === undefined || last.get(event.phase) === event.message) return
    last.set(event.phase, event.message)
    stream.write(`${event.phase}: ${event.message}\n`)
  }
}

/** A live view on a terminal: one updating line per phase, drawn with ink (imported only when a TTY asks for it). */
function inkProgress(stream: NodeJS.WriteStream): (event: ProgressEvent) => void {
  const lines: Lines = new Map()
  let finished = false
  let view: { rerender(node: unknown): void; unmount(): void } | undefined
  let draw: (() => void) | undefined
  const loading = Promise.all([import('ink'), import('react')]).then(([ink, react]) => {
    if (finished) return
    const frame = (): ReturnType<typeof react.createElement> =>
      react.createElement(
        ink.Box,
        { flexDirection: 'column' },
        ...[...lines.entries()].map(([phase, event]) =>
          react.createElement(ink.Text, { key: phase }, react.createElement(ink.Text, { color: 'cyan' }, `⠿ ${phase}`), ` ${describe(event)}`),
        ),
      )
    const instance = ink.render(frame(), { stdout: stream, patchConsole: false, exitOnCtrlC: false })
    view = instance
    draw = () => instance.rerender(frame())
  })
  loading.catch(() => undefined)
  return (event) => {
    if (finished) return
    if (event.phase === 'done') {
      finished = true
      view?.unmount()
      return
    }
    lines.set(event.phase, event)
    draw?.()
  }
}

/** Progress for a command: a live view on a terminal, plain lines otherwise. `--json` never gets here. */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): (event: ProgressEvent) => void {
  // A pseudo-terminal that reports no size (some CI runners) would make ink wrap at every character and clear the screen.
  return stream.isTTY === true && (stream.columns ?? 0) > 0 && (stream.rows ?? 0) > 0 ? inkProgress(stream) : plainProgress(stream)
}
