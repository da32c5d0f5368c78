import { patternText, type EvaluationContext, type TargetEvaluator } from '../context.js'
import { packageRoot, readsImports } from '../imports.js'
import { workspaceRootFile, type Finding, type Rule } from '../model.js'
import type { CompiledPattern } from '../regex.js'

function matchesModule(regex: CompiledPattern, path: string, specifier: string): boolean {
  if (regex.matchesWhole(specifier)) return true
  const root = packageRoot(path, specifier)
  return root !== specifier && regex.matchesWhole(root)
}

function mustNotUse(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  for (const source of context.sourcesInScope(rule, readsImports)) {
    for (const site of context.imports(source)) {
      if (!matchesModule(regex, source.path, site.specifier)) continue
      const { line, column } = source.position(site.offset)
      findings.push({
        rule,
        file: source.path,
        line,
        column,
        subject: site.specifier,
        message: rule.constraint.message ?? `import of ${site.specifier} is not allowed (matches ${patternText(rule)})`,
        lineText: source.line(line),
      })
    }
  }
  return findings
}

/** must_use is repository-wide: some file in scope must import a matching module. */
function mustUse(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] | undefined {
  if (!context.input.complete) return undefined
  const used = context
    .sourcesInScope(rule, readsImports)
    .some((source) => context.imports(source).some((site) => matchesModule(regex, source.path, site.specifier)))
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
