import { messageNaming, patternText, type EvaluationContext, type TargetEvaluator } from './context.js'
import { lineHash } from '../waivers/fingerprint.js'
import { noLineHash, type Finding, type ConstraintRule } from '../model.js'

/** The manifest proposed dependencies are assumed to be added to. */
export const proposedManifest = 'package.json'

function mustNotUse(rule: ConstraintRule, context: EvaluationContext): Finding[] {
  const regex = rule.regex
  if (regex === undefined) return []
  const findings: Finding[] = []
  for (const scan of context.manifestsInScope(rule)) {
    for (const dependency of scan.dependencies) {
      if (!regex.matchesWhole(dependency.name)) continue
      findings.push({
        rule,
        file: scan.path,
        line: dependency.line,
        column: dependency.column,
        subject: dependency.name,
        message: messageNaming(rule, `dependency ${dependency.name}`, `dependency ${dependency.name} is not allowed (matches ${patternText(rule)})`),
        lineHash: dependency.lineHash,
      })
    }
  }
  if (context.inScope(rule, proposedManifest)) {
    for (const dependency of context.input.dependencies) {
      if (!regex.matchesWhole(dependency.name)) continue
      findings.push({
        rule,
        file: proposedManifest,
        line: 1,
        column: 1,
        subject: dependency.name,
        message: messageNaming(rule, `dependency ${dependency.name}`, `dependency ${dependency.name} is not allowed (matches ${patternText(rule)})`),
        lineHash: lineHash(dependency.name),
      })
    }
  }
  return findings
}

/** must_use is judged per manifest: each one in scope needs a matching dependency. */
function mustUse(rule: ConstraintRule, context: EvaluationContext): Finding[] {
  const regex = rule.regex
  if (regex === undefined) return []
  return context
    .manifestsInScope(rule)
    .filter((scan) => !scan.dependencies.some((dependency) => regex.matchesWhole(dependency.name)))
    .map((scan) => ({
      rule,
      file: scan.path,
      line: 1,
      column: 1,
      subject: scan.path,
      message: rule.constraint.message ?? `${scan.path} has no dependency matching ${patternText(rule)}`,
      lineHash: noLineHash,
    }))
}

export const evaluateDependency: TargetEvaluator = (rule, context) =>
  rule.constraint.operator === 'must_use' ? mustUse(rule, context) : mustNotUse(rule, context)
