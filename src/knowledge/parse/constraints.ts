import type { Frontmatter } from '../frontmatter.js'
import { constraintOperators, constraintTargets, operatorsByTarget, severities, type Constraint, type Severity } from '../model.js'
import { patternError } from '../pattern.js'
import { asStringList, isOneOf } from './fields.js'
import type { ProblemList } from './problems.js'

/** A constraint that cannot be read would make `knowledge check` pass without it, so it stops the check. */
function constraintError(problems: ProblemList, line: number, code: string, message: string): void {
  problems.add('error', line, code, message, { hidesConstraints: true })
}

/** The `constraints` list of an item's frontmatter; invalid entries become problems and are left out. */
export function parseConstraints(
  raw: unknown,
  itemId: string,
  itemSeverity: Severity | undefined,
  frontmatter: Frontmatter,
  problems: ProblemList,
): Constraint[] {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) {
    constraintError(problems, frontmatter.lineOf(['constraints']), 'constraints-not-list', 'constraints must be a list of constraint objects')
    return []
  }
  const constraints: Constraint[] = []
  raw.forEach((entry: unknown, index: number) => {
    const lineOfEntry = (): number => frontmatter.lineOf(['constraints', index])
    const at = (key: string): number => frontmatter.lineOf(['constraints', index, key])
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      constraintError(problems, lineOfEntry(), 'constraint-not-object', `constraint ${index + 1} must be an object with operator, target and pattern`)
      return
    }
    const fields = entry as Record<string, unknown>
    const id = typeof fields.id === 'string' && fields.id !== '' ? fields.id : `${itemId}#${index + 1}`
    const { operator, target, pattern } = fields
    let valid = true
    if (!isOneOf(constraintOperators, operator)) {
      constraintError(
        problems,
        at('operator'),
        'unknown-operator',
        `constraint ${id}: unknown operator ${JSON.stringify(operator)}; expected one of ${constraintOperators.join(', ')}`,
      )
      valid = false
    }
    if (!isOneOf(constraintTargets, target)) {
      constraintError(
        problems,
        at('target'),
        'unknown-target',
        `constraint ${id}: unknown target ${JSON.stringify(target)}; expected one of ${constraintTargets.join(', ')}`,
      )
      valid = false
    }
    if (isOneOf(constraintOperators, operator) && isOneOf(constraintTargets, target) && !operatorsByTarget[target].includes(operator)) {
      constraintError(
        problems,
        at('operator'),
        'operator-target-mismatch',
        `constraint ${id}: operator ${operator} does not apply to target ${target}; use ${operatorsByTarget[target].join(' or ')}`,
      )
      valid = false
    }
    if (typeof pattern !== 'string') {
      constraintError(problems, at('pattern'), 'missing-pattern', `constraint ${id}: pattern must be a string`)
      valid = false
    } else if (isOneOf(constraintTargets, target)) {
      const problem = patternError(pattern, target)
      if (problem !== undefined) {
        constraintError(problems, at('pattern'), 'invalid-pattern', `constraint ${id}: ${problem}`)
        valid = false
      }
    }
    const paths = asStringList(fields.paths)
    const exclude = asStringList(fields.exclude)
    if (paths === undefined) constraintError(problems, at('paths'), 'invalid-paths', `constraint ${id}: paths must be a glob or a list of globs`)
    if (exclude === undefined) constraintError(problems, at('exclude'), 'invalid-paths', `constraint ${id}: exclude must be a glob or a list of globs`)
    const severity = fields.severity ?? itemSeverity ?? 'warn'
    if (!isOneOf(severities, severity)) {
      constraintError(
        problems,
        at('severity'),
        'unknown-severity',
        `constraint ${id}: unknown severity ${JSON.stringify(severity)}; expected one of ${severities.join(', ')}`,
      )
      valid = false
    }
    if (fields.waivable !== undefined && typeof fields.waivable !== 'boolean') {
      constraintError(problems, at('waivable'), 'invalid-waivable', `constraint ${id}: waivable must be true or false`)
    }
    if (fields.message !== undefined && typeof fields.message !== 'string') {
      constraintError(problems, at('message'), 'invalid-message', `constraint ${id}: message must be a string`)
    }
    if (!valid || paths === undefined || exclude === undefined) return
    constraints.push({
      id,
      operator: operator as Constraint['operator'],
      target: target as Constraint['target'],
      pattern: pattern as string,
      paths,
      exclude,
      severity: severity as Severity,
      message: typeof fields.message === 'string' ? fields.message : undefined,
      waivable: fields.waivable !== false,
      get line() {
        return lineOfEntry()
      },
    })
  })
  return constraints
}
