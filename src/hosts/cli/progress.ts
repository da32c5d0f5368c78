import { importPackage } from '../../import-package.js'
import type { ProgressEvent } from '../../tools/context.js'
import { stripTerminalControls } from './terminal-controls.js'

export interface ProgressReporter {
  report(event: ProgressEvent): void
  /** Leave the terminal clean: unmount the bar, or nothing for plain lines. */
  finish(): Promise<void>
}

/** Plain lines for logs and pipes: one per phase change and per tenth of the work. */
function plainReporter(stream: NodeJS.WritableStream): ProgressReporter {
  let lastPhase: string | undefined
  let lastTenth = -1
  return {
    report(event) {
      const tenth = event.total === undefined || event.total === 0 ? -1 : Math.floor((event.done / event.total) * 10)
      if (event.phase === lastPhase && tenth === lastTenth) return
      lastPhase = event.phase
      lastTenth = tenth
      const count = event.total === undefined ? (event.message === undefined ? `${event.done}` : '') : `${event.done}/${event.total}`
      stream.write(`${event.phase}: ${[event.message, count].filter((part) => part !== undefined && part !== '').join(' ')}\n`)
    },
    async finish() {},
  }
}

/** A live bar drawn with ink, which is imported only when the first event arrives. */
function inkReporter(stream: NodeJS.WriteStream): ProgressReporter {
  let latest: ProgressEvent | undefined
  let view: Promise<{ update(event: ProgressEvent): void; close(): void }> | undefined
  const start = async (): Promise<{ update(event: ProgressEvent): void; close(): void }> => {
    const [{ render, Box, Text }, { createElement }, { ProgressBar }] = await Promise.all([
      importPackage<typeof import('ink')>('ink'),
      importPackage<typeof import('react')>('react'),
      import('./views/progress-bar.js'),
    ])
    const element = (event: ProgressEvent) => createElement(ProgressBar, { event, ink: { Box, Text } })
    const instance = render(element(latest ?? { phase: '', done: 0, total: undefined }), { stdout: stream, patchConsole: false })
    return { update: (event) => instance.rerender(element(event)), close: () => instance.unmount() }
  }
  return {
    report(event) {
      latest = event
      view ??= start()
      void view.then((drawn) => drawn.update(event))
    },
    async finish() {
      if (view === undefined) return
      const drawn = await view
      if (latest !== undefined) drawn.update(latest)
      drawn.close()
    },
  }
}

/** "ETA 2m 05s": what is left of a phase at the rate seen since it started; undefined until there is a rate to go by. */
export function etaEstimator(now: () => number = () => performance.now()): (event: ProgressEvent) => string | undefined {
  let phase: string | undefined
  let startedAt = 0
  let startDone = 0
  return (event) => {
    if (event.phase !== phase) {
      phase = event.phase
      startedAt = now()
      startDone = event.done
      return undefined
    }
    const elapsed = now() - startedAt
    const progressed = event.done - startDone
    if (event.total === undefined || progressed <= 0 || elapsed < 1000 || event.done >= event.total) return undefined
    const seconds = Math.ceil(((event.total - event.done) * elapsed) / progressed / 1000)
    const minutes = Math.floor(seconds / 60)
    return minutes === 0 ? `ETA ${seconds}s` : `ETA ${minutes}m ${String(seconds % 60).padStart(2, '0')}s`
  }
}

/**
 * A bar with an ETA on a real terminal; plain lines in pipes, logs, pseudo-terminals that report
 * no size (ink would wrap every character) and terminals that say they cannot move the cursor (TERM=dumb).
 */
export function progressReporter(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): ProgressReporter {
  const sized = (stream.columns ?? 0) > 0 && (stream.rows ?? 0) > 0
  const bar = stream.isTTY === true && sized && env.TERM !== 'dumb'
  const reporter = bar ? inkReporter(stream) : plainReporter(stream)
  const eta = bar ? etaEstimator() : () => undefined
  return {
    // Phases and messages can name data (a source, a file): no control sequence in them reaches the terminal.
    report: (event) => {
      const remaining = eta(event)
      const message = [event.message === undefined ? undefined : stripTerminalControls(event.message), remaining].filter((part) => part !== undefined).join(' ')
      reporter.report({ ...event, phase: stripTerminalControls(event.phase), ...(message === '' ? {} : { message }) })
    },
    finish: () => reporter.finish(),
  }
}
