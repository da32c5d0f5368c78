import { patternText, type EvaluationContext, type TargetEvaluator } from '../context.js'
import type { ImportFound } from '../file-scan.js'
import { workspaceRootFile, type Finding, type Rule } from '../model.js'
import type { CompiledPattern } from '../regex.js'

function matchesModule(regex: CompiledPattern, site: ImportFound): boolean {
  return regex.matchesWhole(site.specifier) || (site.root !== site.specifier && regex.matchesWhole(site.root))
}

function mustNotUse(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  for (const occurrences of context.importsByModule().values()) {
    const first = occurrences[0]
    if (first === undefined || !matchesModule(regex, first.site)) continue
    for (const { scan, site } of occurrences) {
      if (!context.inScope(rule, scan.path)) continue
      findings.push({
        rule,
        file: scan.path,
        line: site.line,
        column: site.column,
        subject: site.specifier,
        message: rule.constraint.message ?? `import of ${site.specifier} is not allowed (matches ${patternText(rule)})`,
        lineText: site.lineText,
      })
    }
  }
  return findings
}

/** must_use is repository-wide: some file in scope must import a matching module. */
function mustUse(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] | undefined {
  if (!context.input.complete) return undefined
  const used = [...context.importsByModule().values()].some(
    (occurrences) =>
      occurrences[0] !== undefined && matchesModule(regex, occurrences[0].site) && occurrences.some(({ scan }) => context.inScope(rule, scan.path)),
  )
  if (used) return []
  return [
    {
      rule,
      file: workspaceRootFile,
      line: 1,
      column: 1,
      subject: rule.constraint.pattern,
      message: rule.constraint.message ?? `no file in scope imports a module matching ${patternText(rule)}`,
      lineText: '',
    },
  ]
}

export const evaluateImport: TargetEvaluator = (rule, context) => {
  if (rule.regex === undefined) return []
  return rule.constraint.operator === 'must_use' ? mustUse(rule, rule.regex, context) : mustNotUse(rule, rule.regex, context)
}
