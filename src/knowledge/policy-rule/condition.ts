import jsonLogic, { type AdditionalOperation, type RulesLogic } from 'json-logic-js'
import type { Condition } from './model.js'

/** Where in a condition something is written: object keys and array indexes below the condition. */
export type ConditionPath = (string | number)[]

/** json-logic-js writes `log` to the console, which would corrupt `--json` output and the MCP stream. */
const refusedOperators: ReadonlyMap<string, string> = new Map([['log', 'writes to the console']])

/** Operators whose later arguments read each array element, not the context. */
const iterating = new Set(['map', 'filter', 'reduce', 'all', 'none', 'some'])

const known = new Map<string, boolean>()

/** Whether json-logic-js knows an operator: it throws "Unrecognized operation" for one it does not, and only then. */
function libraryKnows(operator: string): boolean {
  let answer = known.get(operator)
  if (answer === undefined) {
    try {
      jsonLogic.apply({ [operator]: [] } as RulesLogic<AdditionalOperation>, {})
      answer = true
    } catch (error) {
      answer = !(error instanceof Error && error.message.startsWith('Unrecognized operation'))
    }
    known.set(operator, answer)
  }
  return answer
}

/** JSON Logic reads an object with exactly one key as an operation; any other value is data. */
function operationOf(value: unknown): { operator: string; args: unknown } | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const keys = Object.keys(value)
  if (keys.length !== 1) return undefined
  const operator = keys[0] as string
  return { operator, args: (value as Record<string, unknown>)[operator] }
}

function argumentsOf(args: unknown): { value: unknown; path: ConditionPath }[] {
  return Array.isArray(args) ? args.map((value, index) => ({ value, path: [index] })) : [{ value: args, path: [] }]
}

export interface OperatorProblem {
  operator: string
  path: ConditionPath
  message: string
}

/** Operators a condition uses that json-logic-js does not know, or that mk refuses; each with where it is written. */
export function operatorProblems(condition: Condition, at: ConditionPath = []): OperatorProblem[] {
  if (Array.isArray(condition)) return condition.flatMap((value, index) => operatorProblems(value, [...at, index]))
  const operation = operationOf(condition)
  if (operation === undefined) return []
  const here = [...at, operation.operator]
  const refused = refusedOperators.get(operation.operator)
  const own: OperatorProblem[] =
    refused !== undefined
      ? [{ operator: operation.operator, path: here, message: `JSON Logic operator "${operation.operator}" ${refused} and is not allowed in rules` }]
      : libraryKnows(operation.operator)
        ? []
        : [{ operator: operation.operator, path: here, message: `unknown JSON Logic operator "${operation.operator}" (see jsonlogic.com/operations.html)` }]
  return [...own, ...argumentsOf(operation.args).flatMap((arg) => operatorProblems(arg.value, [...here, ...arg.path]))]
}

function literalPaths(operator: string, args: unknown): string[] {
  const list = Array.isArray(args) ? args : [args]
  const asPath = (value: unknown): string[] => ((typeof value === 'string' && value !== '') || typeof value === 'number' ? [String(value)] : [])
  if (operator === 'var') return asPath(list[0])
  if (operator === 'missing') return list.flatMap(asPath)
  if (operator === 'missing_some') return Array.isArray(list[1]) ? list[1].flatMap(asPath) : []
  return []
}

/** The context paths a condition reads (`var`, `missing`, `missing_some` with literal paths), in the order written. */
export function conditionPaths(condition: Condition): string[] {
  if (Array.isArray(condition)) return condition.flatMap(conditionPaths)
  const operation = operationOf(condition)
  if (operation === undefined) return []
  const own = literalPaths(operation.operator, operation.args)
  const args = argumentsOf(operation.args).map((arg) => arg.value)
  // Inside map, filter and the like, only the first argument reads the context; the rest read array elements.
  const read = iterating.has(operation.operator) ? args.slice(0, 1) : args
  return [...own, ...read.flatMap(conditionPaths)]
}

/** JSON Logic truthiness: an empty array is false, everything else as in JavaScript. */
function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value)
}

export type ConditionResult = { holds: boolean; error?: undefined } | { holds: false; error: string }

/** Evaluate a condition against the caller's context with json-logic-js (an interpreter: nothing is compiled or eval'ed). */
export function evaluateCondition(condition: Condition, context: unknown): ConditionResult {
  try {
    return { holds: truthy(jsonLogic.apply(condition as RulesLogic<AdditionalOperation>, context)) }
  } catch (error) {
    return { holds: false, error: error instanceof Error ? error.message : String(error) }
  }
}
