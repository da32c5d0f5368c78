import type { Workspace } from '../config/workspace.js'
import { runCheck } from '../constraints/check.js'
import { atLeast, type Finding } from '../constraints/model.js'
import type { Directive } from '../directives/model.js'
import { insideWorkspace } from '../fs/path-guard.js'
import { addedViolations } from './added-violations.js'
import { fileWritingTools } from './edited-file.js'
import type { Transcript } from './transcript.js'

export interface ConstraintAdherence {
  constraintId: string
  knowledgeItemId: string
  /** File-writing tool calls whose new text adds a violation. */
  attempts: number
  /** Of those, the ones the hook refused. */
  denied: number
  /** Violations in the working tree now. */
  inTree: number
}

export interface DirectiveAdherence {
  directiveId: string
  itemId: string
  /** Times its citation appears in the transcripts: each prompt or session the hook served it to. */
  served: number
}

export interface AdherenceReport {
  transcripts: number
  toolCalls: number
  constraints: ConstraintAdherence[]
  directives: DirectiveAdherence[]
}

interface TextChange {
  path: string
  before: string
  after: string
}

/**
 * The text a file-writing call removed and added. A transcript does not hold the file as it was, so
 * an edit is judged on its own strings (old_string against new_string) and a Write on its whole
 * content: a Write over a file that already broke the rule counts as an attempt.
 */
function changesOf(name: string, input: unknown): TextChange[] {
  if (fileWritingTools[name] === undefined || input === null || typeof input !== 'object') return []
  const fields = input as Record<string, unknown>
  const path = fields.file_path ?? fields.notebook_path
  if (typeof path !== 'string') return []
  const text = (value: unknown): string => (typeof value === 'string' ? value : '')
  if (name === 'Write') return [{ path, before: '', after: text(fields.content) }]
  if (name === 'NotebookEdit') return [{ path, before: '', after: text(fields.new_source) }]
  const edits = name === 'MultiEdit' && Array.isArray(fields.edits) ? (fields.edits as unknown[]) : [fields]
  return edits.map((edit) => {
    const parts = edit !== null && typeof edit === 'object' ? (edit as Record<string, unknown>) : {}
    return { path, before: text(parts.old_string), after: text(parts.new_string) }
  })
}

async function findingsOf(workspace: Workspace, path: string, content: string): Promise<Finding[]> {
  if (content === '') return []
  const failOn = workspace.config.check.failOn
  try {
    const report = await runCheck(workspace, {
      source: { kind: 'proposal', files: [{ path, content }], dependencies: [] },
      minSeverity: 'info',
      failOn,
      useBaseline: false,
    })
    return report.findings.filter((finding) => atLeast(finding.rule.constraint.severity, failOn))
  } catch {
    // A fragment that cannot be checked alone (part of a package.json) is not counted.
    return []
  }
}

/** How often the accepted constraints were broken, refused and left in the tree, and the directives served, over Claude Code transcripts. */
export async function adherenceOf(workspace: Workspace, transcripts: readonly Transcript[], directives: readonly Directive[]): Promise<AdherenceReport> {
  const byConstraint = new Map<string, ConstraintAdherence>()
  const entry = (finding: Finding): ConstraintAdherence => {
    const id = finding.rule.constraint.id
    const existing = byConstraint.get(id)
    if (existing !== undefined) return existing
    const created = { constraintId: id, knowledgeItemId: finding.rule.item.id, attempts: 0, denied: 0, inTree: 0 }
    byConstraint.set(id, created)
    return created
  }
  let toolCalls = 0
  for (const transcript of transcripts) {
    for (const call of transcript.calls) {
      toolCalls++
      const added = new Set<ConstraintAdherence>()
      for (const change of changesOf(call.name, call.input)) {
        const path = insideWorkspace(workspace.root, change.path)
        if (path === undefined) continue
        const [before, after] = await Promise.all([findingsOf(workspace, path, change.before), findingsOf(workspace, path, change.after)])
        for (const finding of addedViolations(before, after)) added.add(entry(finding))
      }
      for (const constraint of added) {
        constraint.attempts++
        if (call.isError && call.result?.includes(constraint.constraintId) === true) constraint.denied++
      }
    }
  }
  const failOn = workspace.config.check.failOn
  const tree = await runCheck(workspace, { source: { kind: 'tree' }, minSeverity: failOn, failOn, useBaseline: false })
  for (const finding of tree.findings) entry(finding).inTree++
  const text = transcripts.map((transcript) => transcript.text).join('\n')
  const served = directives.map((directive) => ({
    directiveId: directive.id,
    itemId: directive.itemId,
    served: text.split(`${directive.path}#${directive.section}`).length - 1,
  }))
  return {
    transcripts: transcripts.length,
    toolCalls,
    constraints: [...byConstraint.values()].sort((a, b) => a.constraintId.localeCompare(b.constraintId)),
    directives: served.filter((directive) => directive.served > 0).sort((a, b) => b.served - a.served || a.directiveId.localeCompare(b.directiveId)),
  }
}
