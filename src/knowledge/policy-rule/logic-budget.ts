import jsonLogic, { type AdditionalOperation, type RulesLogic } from 'json-logic-js'

/**
 * What one evaluation of a condition may cost. Steps: expressions evaluated,
 * each element an operator like `map` or `some` visits included (about half a
 * microsecond each, so the steps cap an evaluation near 50 ms). Size: array
 * elements and characters that `merge` and `cat` build, summed over the
 * evaluation; every other operator builds at most one value per step. A rule
 * that doubles a list in a `reduce` would otherwise take gigabytes.
 */
export const logicBudget = { steps: 100_000, size: 1_000_000 } as const

export class LogicBudgetExceeded extends Error {}

interface Meter {
  steps: number
  size: number
}

/** The evaluation under way, if any: evaluation is synchronous, so one meter at a time. */
let meter: Meter | undefined

function charge(field: keyof Meter, amount: number): void {
  if (meter === undefined) return
  meter[field] += amount
  if (meter[field] > logicBudget[field]) {
    const what = field === 'steps' ? `${logicBudget.steps} evaluation steps` : `${logicBudget.size} array elements and characters built by merge and cat`
    throw new LogicBudgetExceeded(`condition exceeds the evaluation budget of ${what}`)
  }
}

/** The length String(value) would have, counted only as far as `limit` so that a huge join is never built. */
function textLength(value: unknown, limit: number): number {
  if (!Array.isArray(value)) return value === null || value === undefined ? 0 : String(value).length
  let length = Math.max(0, value.length - 1)
  for (const element of value) {
    if (length > limit) break
    length += textLength(element, limit - length)
  }
  return length
}

// json-logic-js evaluates sub-expressions through its exported `apply`, and looks operators up where
// add_operation puts them: metering both covers every step and every value merge and cat build.
const libraryApply = jsonLogic.apply.bind(jsonLogic)
jsonLogic.apply = (logic: RulesLogic<AdditionalOperation>, data?: unknown): unknown => {
  charge('steps', 1)
  return libraryApply(logic, data)
}
jsonLogic.add_operation('merge', (...args: unknown[]): unknown[] => {
  charge(
    'size',
    args.reduce<number>((sum, arg) => sum + (Array.isArray(arg) ? arg.length : 1), 0),
  )
  return ([] as unknown[]).concat(...args)
})
jsonLogic.add_operation('cat', (...args: unknown[]): string => {
  const limit = meter === undefined ? Number.POSITIVE_INFINITY : logicBudget.size - meter.size
  charge(
    'size',
    args.reduce<number>((sum, arg) => sum + textLength(arg, limit - sum), 0),
  )
  return args.join('')
})

/** Evaluate with json-logic-js within the budget; throws LogicBudgetExceeded past it. */
export function applyWithinBudget(logic: unknown, data: unknown): unknown {
  const outer = meter
  meter = { steps: 0, size: 0 }
  try {
    return jsonLogic.apply(logic as RulesLogic<AdditionalOperation>, data)
  } finally {
    meter = outer
  }
}
