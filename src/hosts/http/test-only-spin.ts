import { readFileSync } from 'node:fs'
import type { LockNote } from '../../fs/lock-file.js'
import type { ToolCall } from './tool-call.js'

/**
 * TEST ONLY: the tests of the server's thread deadline need a call that holds its thread's CPU and
 * never yields, and one that does so while it holds a memory folder's lock. No tool does that for a
 * caller's input (inputs and bodies are capped), so a tool thread whose server was started with
 *
 * - MK_SERVE_TEST_ONLY_SPIN_ON=<text> spins, before the tool runs, on a call whose input contains <text>;
 * - MK_SERVE_TEST_ONLY_SPIN_IN_LOCK_ON=<text> runs such a call until it holds its first lock, then spins.
 *
 * Only the operator's environment sets them, no request can; unset (always, on a real server) this does nothing.
 */
export interface TestOnlySpin {
  /** Before a call runs: spins at once, or arms the spin in a lock for this call. */
  before(call: ToolCall): void
  /** After it answered. */
  after(): void
  /** Every lock note of this thread (see reportLocksTo). */
  lockNote(note: LockNote): void
}

function marked(call: ToolCall, text: string | undefined): boolean {
  return text !== undefined && text !== '' && JSON.stringify(call.input).includes(text)
}

function spin(): never {
  for (;;);
}

export function testOnlySpin(env: Readonly<Record<string, string | undefined>>): TestOnlySpin {
  let armed = false
  return {
    before(call) {
      if (marked(call, env.MK_SERVE_TEST_ONLY_SPIN_ON)) spin()
      armed = marked(call, env.MK_SERVE_TEST_ONLY_SPIN_IN_LOCK_ON)
    },
    after() {
      armed = false
    },
    lockNote(note) {
      if (!armed || !note.held) return
      armed = false
      // The note comes before the lock file is written: spin once it holds this content.
      const held = setInterval(() => {
        let content: string | undefined
        try {
          content = readFileSync(note.path, 'utf8')
        } catch {
          return
        }
        if (content === note.content) spin()
      }, 1)
      held.unref()
    },
  }
}
