import type { Log, ReportingDescriptor, Result } from 'sarif'
import type { Severity } from '../../knowledge/model.js'
import { subjectHash } from '../fingerprint.js'
import type { CheckReport } from '../check.js'
import { workspaceRootFile, type Finding, type Rule } from '../model.js'

const levelBySeverity: Readonly<Record<Severity, Result.level>> = { block: 'error', warn: 'warning', info: 'note' }

function describeRule(rule: Rule): ReportingDescriptor {
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

/**
 * SARIF 2.1.0 for code scanning: one rule per constraint, one result per
 * violation. Repository-wide findings (nothing imports X) point at the line of
 * the knowledge file that states the constraint, since SARIF results need a file.
 */
export function renderSarif(report: CheckReport): string {
  const rules: ReportingDescriptor[] = []
  const ruleIndex = new Map<string, number>()
  for (const rule of report.rules) {
    if (ruleIndex.has(rule.constraint.id)) continue
    ruleIndex.set(rule.constraint.id, rules.length)
    rules.push(describeRule(rule))
  }
  const toResult = (finding: Finding, suppression?: { kind: 'inSource' | 'external'; justification: string }): Result => {
    const { constraint, item } = finding.rule
    const repositoryWide = finding.file === workspaceRootFile
    return {
      ruleId: constraint.id,
      ruleIndex: ruleIndex.get(constraint.id) ?? -1,
      level: levelBySeverity[constraint.severity],
      message: { text: repositoryWide ? `${finding.message} (repository-wide)` : finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: encodeURI(repositoryWide ? item.path : finding.file), uriBaseId: '%SRCROOT%' },
            region: repositoryWide ? { startLine: constraint.line } : { startLine: finding.line, startColumn: finding.column },
          },
        },
      ],
      partialFingerprints: { 'mkSubjectHash/v1': `${constraint.id}:${subjectHash(finding.subject)}` },
      ...(suppression === undefined ? {} : { suppressions: [suppression] }),
    }
  }
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mk', rules } },
        results: [
          ...report.findings.map((finding) => toResult(finding)),
          ...report.waived.map(({ finding, waiver }) =>
            toResult(finding, { kind: waiver.source === 'inline' ? 'inSource' : 'external', justification: waiver.reason }),
          ),
        ],
      },
    ],
  }
  return JSON.stringify(log, null, 2)
}
