import { isAbsolute, relative } from 'node:path'
import type { Log, Notification, ReportingDescriptor, Result, Run } from 'sarif'
import type { ErrorObject } from '../../errors.js'
import { toPosix } from '../../fs/walk.js'
import type { Severity } from '../../knowledge/model.js'
import type { CheckReport } from '../pipeline/report.js'
import { subjectHash } from '../waivers/fingerprint.js'
import { workspaceRootFile, type Finding, type ConstraintRule } from '../model.js'
import { describeOverrun } from '../scan/scan-budget.js'
import { describeNotEnforced, describeUnloaded } from '../knowledge-notes.js'

const levelBySeverity: Readonly<Record<Severity, Result.level>> = { block: 'error', warn: 'warning', info: 'note' }

/** Code scanning resolves result paths against the repository root, which SARIF names by this base id. */
const sourceRoot = '%SRCROOT%'

/** What the reporter says about itself in `tool.driver`. */
export interface ToolInfo {
  version: string
}

function describeRule(rule: ConstraintRule): ReportingDescriptor {
  const { constraint, item } = rule
  return {
    id: constraint.id,
    shortDescription: { text: item.title },
    fullDescription: { text: item.summary ?? constraint.message ?? item.title },
    ...(constraint.message === undefined ? {} : { help: { text: constraint.message } }),
    defaultConfiguration: { level: levelBySeverity[constraint.severity] },
    properties: {
      knowledgeItemId: item.id,
      knowledgeItemPath: item.path,
      operator: constraint.operator,
      target: constraint.target,
      pattern: constraint.pattern,
      tags: item.tags,
    },
  }
}

/** A repository-relative posix path, or undefined for a path outside the repository (knowledge in MK_HOME or beside the repository). */
function inRepository(repositoryRoot: string, absolutePath: string): string | undefined {
  const path = toPosix(relative(repositoryRoot, absolutePath))
  return path === '..' || path.startsWith('../') || isAbsolute(path) ? undefined : path
}

function driver(tool: ToolInfo, rules: ReportingDescriptor[] = []): Run['tool'] {
  return { driver: { name: 'mk', version: tool.version, semanticVersion: tool.version, rules } }
}

function log(run: Run): Log {
  return { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs: [run] }
}

/**
 * SARIF 2.1.0 for code scanning: one rule per constraint id, one result per
 * violation, paths relative to the repository root (also when the workspace is
 * a sub-folder of it). Repository-wide findings (nothing imports X) point at
 * the line of the knowledge file that states the constraint when that file is
 * in the repository, else at the workspace's .mkrc, which brings that knowledge in.
 */
export function renderSarif(report: CheckReport, tool: ToolInfo): string {
  const { repositoryRoot, workspaceRoot, configFile } = report.location
  const toRepository = (workspacePath: string): string => inRepository(repositoryRoot, `${workspaceRoot}/${workspacePath}`) ?? workspacePath
  const rules: ReportingDescriptor[] = []
  const ruleIndex = new Map<string, number>()
  for (const rule of report.rules) {
    if (ruleIndex.has(rule.constraint.id)) continue
    ruleIndex.set(rule.constraint.id, rules.length)
    rules.push(describeRule(rule))
  }
  const repositoryWideLocation = (rule: ConstraintRule): { uri: string; startLine: number } => {
    const knowledgeFile = inRepository(repositoryRoot, rule.item.absolutePath)
    if (knowledgeFile !== undefined) return { uri: knowledgeFile, startLine: rule.constraint.line }
    const config = configFile === undefined ? undefined : inRepository(repositoryRoot, configFile)
    return { uri: config ?? toRepository(workspaceRootFile), startLine: 1 }
  }
  // Two results with the same constraint and subject in one file (two matches on one line) are told apart by their order.
  const occurrences = new Map<string, number>()
  const toResult = (finding: Finding, suppression?: { kind: 'inSource' | 'external'; justification: string }): Result => {
    const { constraint } = finding.rule
    const repositoryWide = finding.file === workspaceRootFile
    const place = repositoryWide ? repositoryWideLocation(finding.rule) : { uri: toRepository(finding.file), startLine: finding.line }
    const fingerprint = `${constraint.id}:${place.uri}:${subjectHash(finding.subject)}`
    const occurrence = (occurrences.get(fingerprint) ?? 0) + 1
    occurrences.set(fingerprint, occurrence)
    return {
      ruleId: constraint.id,
      ruleIndex: ruleIndex.get(constraint.id) ?? -1,
      level: levelBySeverity[constraint.severity],
      message: { text: repositoryWide ? `${finding.message} (repository-wide)` : finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: encodeURI(place.uri), uriBaseId: sourceRoot },
            region: repositoryWide ? { startLine: place.startLine } : { startLine: finding.line, startColumn: finding.column },
          },
        },
      ],
      partialFingerprints: { 'mkSubjectHash/v1': `${subjectHash(fingerprint)}:${occurrence}` },
      ...(suppression === undefined ? {} : { suppressions: [suppression] }),
    }
  }
  const notifications: Notification[] = report.skipped.overBudget.map((skip) => ({
    level: 'warning',
    message: { text: `${skip.file} was not judged against ${skip.constraintId}: ${describeOverrun(skip.reason)}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: encodeURI(toRepository(skip.file)), uriBaseId: sourceRoot } } }],
    associatedRule: { id: skip.constraintId, ...(ruleIndex.has(skip.constraintId) ? { index: ruleIndex.get(skip.constraintId) } : {}) },
  }))
  for (const problem of report.knowledge.unloaded) {
    notifications.push({
      level: 'warning',
      message: { text: describeUnloaded(problem) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: encodeURI(toRepository(problem.file)), uriBaseId: sourceRoot },
            ...(problem.line > 0 ? { region: { startLine: problem.line } } : {}),
          },
        },
      ],
    })
  }
  const notEnforced = describeNotEnforced(report.knowledge.notEnforced)
  if (notEnforced !== undefined) {
    notifications.push({ level: 'note', message: { text: notEnforced }, properties: { notEnforced: report.knowledge.notEnforced.items } })
  }
  return JSON.stringify(
    log({
      tool: driver(tool, rules),
      invocations: [{ executionSuccessful: true, ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}) }],
      results: [
        ...report.findings.map((finding) => toResult(finding)),
        ...report.waived.map(({ finding, waiver }) =>
          toResult(finding, { kind: waiver.source === 'inline' ? 'inSource' : 'external', justification: waiver.reason }),
        ),
      ],
    }),
    null,
    2,
  )
}

/** A check that could not run, as SARIF: a CI step that uploads the file shows the error instead of failing on an empty one. */
export function renderSarifError(error: ErrorObject, tool: ToolInfo): string {
  return JSON.stringify(
    log({
      tool: driver(tool),
      invocations: [
        {
          executionSuccessful: false,
          toolExecutionNotifications: [
            { level: 'error', message: { text: `${error.errorCode}: ${error.message}` }, properties: { errorCode: error.errorCode, ...(error.details ?? {}) } },
          ],
        },
      ],
      results: [],
    }),
    null,
    2,
  )
}
