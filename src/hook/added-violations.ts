import type { Finding } from '../constraints/model.js'

const keyOf = (finding: Finding): string => `${finding.rule.constraint.id}\0${finding.subject}`

/**
 * The violations a change adds: those of the file after it beyond the ones it already had, matched
 * by constraint and subject (not by line, which an edit above moves). A change to a file that already
 * violates a constraint, and adds no new case, adds nothing: the baseline's ratchet, per edit.
 */
export function addedViolations(before: readonly Finding[], after: readonly Finding[]): Finding[] {
  const remaining = new Map<string, number>()
  for (const finding of before) remaining.set(keyOf(finding), (remaining.get(keyOf(finding)) ?? 0) + 1)
  return after.filter((finding) => {
    const left = remaining.get(keyOf(finding)) ?? 0
    if (left === 0) return true
    remaining.set(keyOf(finding), left - 1)
    return false
  })
}

const maxListed = 3

/** What the model reads when its edit is refused: per violation the constraint, the decision and how to comply, kept short. */
export function deniedEditReason(file: string, added: readonly Finding[]): string {
  const lines = added.slice(0, maxListed).map((finding) => {
    const { constraint, item } = finding.rule
    const comply = constraint.message ?? `${constraint.operator} ${constraint.target} ${constraint.pattern}`
    return `- ${constraint.id} (${item.id} "${item.title}"), line ${finding.line}: ${finding.subject}. ${comply}`
  })
  const more = added.length > maxListed ? [`- and ${added.length - maxListed} more`] : []
  const ids = [...new Set(added.map((finding) => finding.rule.item.id))]
  return [
    `mk: this change to ${file} breaks an accepted decision:`,
    ...lines,
    ...more,
    `Change the content to comply and retry (details: mk knowledge show ${ids.join(' ')}).`,
  ].join('\n')
}
