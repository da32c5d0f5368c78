import type { DispatchOutcome } from '../../tools/dispatcher.js'

/**
 * The agent hooks go through the workspace's local server, whose check is warm, but its answer is
 * only a shortcut: no whole answer within this time, an error, or an answer that is not a hook
 * answer runs the check in-process, so a denied edit never passes because the server misbehaved.
 */
export const hookToolNames: ReadonlySet<string> = new Set(['hook_claude', 'hook_cursor'])
export const hookAnswerTimeoutMs = 1_000

const decisions: ReadonlySet<unknown> = new Set(['deny', 'context', 'report', 'none'])

/**
 * Whether a hook answer from the server is taken: the output of hook_claude or hook_cursor (event,
 * decision, rule ids) whose printed text is its hook_output, so what the agent reads is what the
 * decision says. Checked by hand: the hook's fast path loads no schema library.
 */
export function trustedHookAnswer(outcome: DispatchOutcome | undefined): outcome is Extract<DispatchOutcome, { ok: true }> {
  if (outcome === undefined || !outcome.ok) return false
  const output = outcome.output as { event?: unknown; decision?: unknown; rule_ids?: unknown; hook_output?: unknown } | null
  if (typeof output !== 'object' || output === null) return false
  if (typeof output.event !== 'string' || !decisions.has(output.decision) || !Array.isArray(output.rule_ids)) return false
  if (output.hook_output !== undefined && (typeof output.hook_output !== 'object' || output.hook_output === null)) return false
  if (output.decision === 'deny' && output.hook_output === undefined) return false
  return outcome.display === (output.hook_output === undefined ? '' : JSON.stringify(output.hook_output))
}

/** Set, process-wide (the fast path is a bundle of its own), once a hook asked the local server. */
const askedKey = Symbol.for('mk.hook.asked-local-server')

/** Marks that this process asked the local server for the hook's answer. */
export function noteLocalServerAsked(): void {
  ;(globalThis as { [askedKey]?: boolean })[askedKey] = true
}

/** Whether the fast path asked already and did not take the answer: mk's own run then checks in-process at once. */
export function localServerAsked(): boolean {
  return (globalThis as { [askedKey]?: boolean })[askedKey] === true
}
