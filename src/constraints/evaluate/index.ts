import type { ConstraintTarget } from '../../knowledge/model.js'
import type { TargetEvaluator } from './context.js'
import { evaluateCode } from './code.js'
import { evaluateDependency } from './dependency.js'
import { evaluateFile } from './file.js'
import { evaluateImport } from './import.js'

export const evaluators: Readonly<Record<ConstraintTarget, TargetEvaluator>> = {
  dependency: evaluateDependency,
  import: evaluateImport,
  code: evaluateCode,
  file: evaluateFile,
}
