import type { KernelPlan, PlanRuntime, PlanTensor, Source, Step } from './kernel-plan.js'

type Path = (string | number)[]

/**
 * A kernel plan for any text length: the plan recorded at one length, and where its numbers are that
 * length. The graph's kernels, their inputs and every other attribute are the same at every length;
 * only shapes (a reshape's target, a range's end) carry the number of word pieces.
 */
export interface PlanTemplate {
  plan: KernelPlan
  /** Per step, the paths in its attributes whose number is the text's length. */
  lengthInAttrs: Path[][]
  /** Per constant, the positions of its values that are the text's length. */
  lengthInConstants: number[][]
}

/**
 * The paths where `a` holds `lengthA` and `b` holds `lengthB`, every other value being equal; undefined
 * where the two differ in any other way (a number that grows otherwise with the length, another shape).
 */
function lengthPaths(a: unknown, b: unknown, lengthA: number, lengthB: number, path: Path, found: Path[]): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === lengthA && b === lengthB) found.push(path)
    return Object.is(a, b) || (a === lengthA && b === lengthB)
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, index) => lengthPaths(value, b[index], lengthA, lengthB, [...path, index], found))
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return false
    return keys.every((key) => key in b && lengthPaths(a[key as keyof typeof a], b[key as keyof typeof b], lengthA, lengthB, [...path, key], found))
  }
  return a === b
}

/** Whether two steps' inputs are the same: the same earlier outputs, graph inputs, weights, and constants at the same position. */
function sameSources(a: Step, b: Step, planA: KernelPlan, planB: KernelPlan): boolean {
  return (
    a.sources.length === b.sources.length &&
    a.sources.every((source, index) => {
      const other = b.sources[index]
      if (source === undefined || other === undefined) return source === other
      if ('slot' in source) return 'slot' in other && source.slot === other.slot
      if ('input' in source) return 'input' in other && source.input === other.input
      if (!('tensor' in other)) return false
      const constant = planA.constants.indexOf(source.tensor)
      return constant === -1 ? source.tensor === other.tensor : planB.constants.indexOf(other.tensor) === constant
    })
  )
}

/**
 * The template the plans of two different lengths share, or undefined when they differ in anything
 * but numbers equal to their lengths. It holds for lengths whose every length-bearing number is the
 * length itself: test/unit/search/embedding/plan-template.test.ts checks the bundled model's plans
 * at every length up to the 128 word pieces it reads against recorded ones.
 */
export function planTemplate(a: KernelPlan, lengthA: number, b: KernelPlan, lengthB: number): PlanTemplate | undefined {
  if (lengthA === lengthB || a.steps.length !== b.steps.length || a.slots !== b.slots || a.constants.length !== b.constants.length) return undefined
  if (JSON.stringify(a.output) !== JSON.stringify(b.output) || a.output === undefined || !('slot' in a.output)) return undefined
  const lengthInAttrs: Path[][] = []
  for (const [index, step] of a.steps.entries()) {
    const other = b.steps[index] as Step
    const paths: Path[] = []
    if (step.kernel !== other.kernel || JSON.stringify([step.names, step.outputs]) !== JSON.stringify([other.names, other.outputs])) return undefined
    if (!sameSources(step, other, a, b) || !lengthPaths(step.attrs, other.attrs, lengthA, lengthB, [], paths)) return undefined
    lengthInAttrs.push(paths)
  }
  const lengthInConstants: number[][] = []
  for (const [index, constant] of a.constants.entries()) {
    const other = b.constants[index] as PlanTensor
    const paths: Path[] = []
    if (constant.dtype !== other.dtype || JSON.stringify(constant.shape) !== JSON.stringify(other.shape)) return undefined
    if (!lengthPaths(Array.from(constant.dataSync()), Array.from(other.dataSync()), lengthA, lengthB, [], paths)) return undefined
    lengthInConstants.push(paths.map((path) => path[0] as number))
  }
  return { plan: a, lengthInAttrs, lengthInConstants }
}

function withLength(attrs: Record<string, unknown>, paths: Path[], length: number): Record<string, unknown> {
  const copy = structuredClone(attrs)
  for (const path of paths) {
    let holder: Record<string | number, unknown> = copy
    for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>
    holder[path[path.length - 1] as string | number] = length
  }
  return copy
}

/** The plan of a text of `length` word pieces, made from the template without running the graph. */
export function planOfLength(runtime: PlanRuntime, template: PlanTemplate, length: number): KernelPlan {
  const { plan } = template
  const constants = plan.constants.map((constant, index) => {
    const values = constant.dataSync().slice()
    for (const position of template.lengthInConstants[index] ?? []) values[position] = length
    return runtime.keep(runtime.tensor(values, constant.shape, constant.dtype))
  })
  const sourceOf = (source: Source): Source => {
    if (source === undefined || !('tensor' in source)) return source
    const constant = plan.constants.indexOf(source.tensor)
    return constant === -1 ? source : { tensor: constants[constant] as PlanTensor }
  }
  const steps = plan.steps.map((step, index) => {
    const paths = template.lengthInAttrs[index] ?? []
    return {
      ...step,
      sources: step.sources.map(sourceOf),
      attrs: paths.length === 0 || step.attrs === undefined ? step.attrs : withLength(step.attrs, paths, length),
    }
  })
  return { steps, slots: plan.slots, output: plan.output, constants }
}
