import { importPackage } from '../import-package.js'
import type { ProgressEvent } from '../tools/context.js'
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

/** A bar on a real terminal; plain lines in pipes, logs and pseudo-terminals that report no size (ink would wrap every character). */
export function progressReporter(stream: NodeJS.WriteStream): ProgressReporter {
  const sized = (stream.columns ?? 0) > 0 && (stream.rows ?? 0) > 0
  const reporter = stream.isTTY === true && sized ? inkReporter(stream) : plainReporter(stream)
  return {
    // Phases and messages can name data (a source, a file): no control sequence in them reaches the terminal.
    report: (event) =>
      reporter.report({
        ...event,
        phase: stripTerminalControls(event.phase),
        ...(event.message === undefined ? {} : { message: stripTerminalControls(event.message) }),
      }),
    finish: () => reporter.finish(),
  }
}
