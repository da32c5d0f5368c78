import type { ConstraintTarget } from '../../knowledge/model.js'
import type { ConstraintRule } from '../model.js'
import type { TargetEvaluator } from './context.js'
import { evaluateCode } from './code.js'
import { evaluateDependency } from './dependency.js'
import { evaluateFile } from './file.js'
import { evaluateImport } from './import.js'

/** Per-file evaluators: each finding belongs to the file it names. */
export const evaluators: Readonly<Record<ConstraintTarget, TargetEvaluator>> = {
  dependency: evaluateDependency,
  import: evaluateImport,
  code: evaluateCode,
  file: evaluateFile,
}

/** A rule judged on the whole snapshot (some path exists, some file imports): not on a partial input. */
export function isRepositoryWide(rule: ConstraintRule): boolean {
  const { target, operator } = rule.constraint
  return (target === 'file' && operator === 'must_exist') || (target === 'import' && operator === 'must_use' && rule.regex !== undefined)
}
