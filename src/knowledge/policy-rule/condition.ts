import jsonLogic, { type AdditionalOperation, type RulesLogic } from 'json-logic-js'
import { applyWithinBudget, LogicBudgetExceeded } from './logic-budget.js'
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

const reads = (value: unknown, name: string): boolean => conditionPaths(value).some((path) => path === name || path.startsWith(`${name}.`))

/** Where a `reduce` body merges or concatenates its accumulator with itself, which doubles it on every element. */
function doublingProblems(condition: Condition, at: ConditionPath): OperatorProblem[] {
  if (Array.isArray(condition)) return condition.flatMap((value, index) => doublingProblems(value, [...at, index]))
  const operation = operationOf(condition)
  if (operation === undefined) return []
  const here = [...at, operation.operator]
  const args = argumentsOf(operation.args)
  const own: OperatorProblem[] = []
  if (operation.operator === 'reduce' && args[1] !== undefined) {
    const builders = growingOperations(args[1].value, [...here, ...args[1].path])
    for (const builder of builders) {
      if (builder.args.filter((arg) => reads(arg, 'accumulator')).length < 2) continue
      own.push({
        operator: builder.operator,
        path: builder.path,
        message: `"${builder.operator}" in a reduce reads the accumulator more than once, so it grows exponentially with the list; read it once`,
      })
    }
  }
  return [...own, ...args.flatMap((arg) => doublingProblems(arg.value, [...here, ...arg.path]))]
}

/** The merge and cat operations of an expression, not looking into the element expressions of map, filter and the like (another scope). */
function growingOperations(value: unknown, at: ConditionPath): { operator: string; path: ConditionPath; args: unknown[] }[] {
  if (Array.isArray(value)) return value.flatMap((element, index) => growingOperations(element, [...at, index]))
  const operation = operationOf(value)
  if (operation === undefined) return []
  const here = [...at, operation.operator]
  const args = argumentsOf(operation.args)
  const own =
    operation.operator === 'merge' || operation.operator === 'cat' ? [{ operator: operation.operator, path: here, args: args.map((arg) => arg.value) }] : []
  const inScope = iterating.has(operation.operator) ? args.slice(0, 1) : args
  return [...own, ...inScope.flatMap((arg) => growingOperations(arg.value, [...here, ...arg.path]))]
}

/**
 * Conditions that would exceed the evaluation budget (logic-budget.ts): a reduce that doubles its
 * accumulator, whatever the list, and any condition over the budget on an empty context.
 */
export function budgetProblems(condition: Condition): OperatorProblem[] {
  const doubling = doublingProblems(condition, [])
  if (doubling.length > 0) return doubling
  try {
    applyWithinBudget(condition, {})
  } catch (error) {
    if (error instanceof LogicBudgetExceeded) return [{ operator: '', path: [], message: `${error.message} on an empty context; simplify it` }]
  }
  return []
}

/** JSON Logic truthiness: an empty array is false, everything else as in JavaScript. */
function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value)
}

export type ConditionResult = { holds: boolean; error?: undefined } | { holds: false; error: string }

/** Evaluate a condition against the caller's context with json-logic-js (an interpreter: nothing is compiled or eval'ed), within the evaluation budget. */
export function evaluateCondition(condition: Condition, context: unknown): ConditionResult {
  try {
    return { holds: truthy(applyWithinBudget(condition, context)) }
  } catch (error) {
    return { holds: false, error: error instanceof Error ? error.message : String(error) }
  }
}
