import { createHash } from 'node:crypto'
import { MkError } from '../errors.js'
import type { Outcome } from '../knowledge/policy-rule/model.js'
import { attributeOutcome } from './attribute.js'
import type { Evaluation } from './evaluate.js'
import type { OutcomeEvent } from './outcomes.js'
import { byRank } from './rank.js'

/** How a tool that tools_select chose worked out, as tools_feedback is told it. */
export interface ToolFeedback {
  selected_tool: string
  candidates: readonly string[]
  outcome: Outcome
  target: 'tool' | 'all'
  include_shadow: boolean
  context: Record<string, unknown>
  run_id?: string | undefined
  note?: string | undefined
  input_text?: string | undefined
  input_sha256?: string | undefined
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

/** The task input is recorded only as a hash: exactly one of input_text (hashed here) or input_sha256 must be given. */
function inputHash(feedback: Pick<ToolFeedback, 'input_text' | 'input_sha256'>): string {
  if ((feedback.input_text === undefined) === (feedback.input_sha256 === undefined)) {
    throw new MkError('INVALID_INPUT', 'input_text or input_sha256: give exactly one (the task the tool was selected for; only its hash is kept)', {
      details: { field: 'input_text', hint: 'pass input_text with the task, or input_sha256 with its SHA-256 in hex' },
    })
  }
  return feedback.input_sha256 ?? sha256(feedback.input_text ?? '')
}

/** Refuses a selected tool that is not one of its candidates, and a task given as neither text nor hash, or as both. */
export function checkFeedback(feedback: ToolFeedback): void {
  if (!feedback.candidates.includes(feedback.selected_tool)) {
    throw new MkError('INVALID_INPUT', `selected_tool: "${feedback.selected_tool}" is not one of the candidates (${feedback.candidates.join(', ')})`, {
      details: { field: 'selected_tool', hint: 'pass the tool that was used, and the candidates it was selected from' },
    })
  }
  inputHash(feedback)
}

/**
 * The outcome events a feedback appends to the ledgers: one per matched rule that decided about the
 * selected tool (target tool) or any candidate (target all), none when no such rule matched.
 */
export function feedbackEvents(feedback: ToolFeedback, evaluation: Pick<Evaluation, 'active' | 'shadow'>, at: string): OutcomeEvent[] {
  const inputSha256 = inputHash(feedback)
  const matched = feedback.include_shadow ? [...evaluation.active, ...evaluation.shadow].sort(byRank) : evaluation.active
  const credited = attributeOutcome(matched, feedback.target, feedback.selected_tool, feedback.candidates)
  const contextSha256 = sha256(JSON.stringify(feedback.context))
  return credited.map(({ rule }) => ({
    rule_id: rule.id,
    at,
    outcome: feedback.outcome,
    tool: feedback.selected_tool,
    target: feedback.target,
    ...(feedback.run_id === undefined ? {} : { run_id: feedback.run_id }),
    ...(feedback.note === undefined ? {} : { note: feedback.note }),
    input_sha256: inputSha256,
    context_sha256: contextSha256,
  }))
}
