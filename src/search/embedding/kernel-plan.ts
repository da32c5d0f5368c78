/** The parts of a TensorFlow.js tensor a plan handles. */
export interface PlanTensor {
  readonly shape: number[]
  readonly dtype: string
  dataSync(): Float32Array | Int32Array | Uint8Array
  dispose(): void
}
type KernelInputs = Record<string, PlanTensor | undefined> | PlanTensor[]
type KernelOutput = PlanTensor | PlanTensor[]
interface Engine {
  runKernel(kernel: string, inputs: KernelInputs, attrs: Record<string, unknown> | undefined): KernelOutput
}
/** The parts of TensorFlow.js that record and replay a plan. */
export interface PlanRuntime {
  engine(): Engine
  tidy<T extends PlanTensor>(run: () => T): T
  keep<T extends PlanTensor>(tensor: T): T
  tensor(values: Float32Array | Int32Array | Uint8Array, shape: number[], dtype: string): PlanTensor
}

/** Where a kernel's input comes from: an earlier kernel's output, an input of the graph, a weight or a constant the run made. */
export type Source = { slot: number } | { input: string } | { tensor: PlanTensor } | undefined
export interface Step {
  kernel: string
  /** The input names of a kernel called with named inputs; undefined for one called with a list. */
  names: string[] | undefined
  sources: Source[]
  attrs: Record<string, unknown> | undefined
  outputs: number[]
}

/**
 * The kernels one run of a graph called, in order, with their attributes: replayed, it gives the
 * graph's result without the graph executor's work per node (resolving each node's inputs and
 * attributes, reading shapes back from tensors), which was half the CPU of embedding a question.
 * A plan holds for inputs of the shapes it was recorded with: every attribute the executor
 * computed came from shapes, never from the values (the tokens) — test/unit/search/embedding/kernel-plan.test.ts
 * replays plans on texts of the same length and different words.
 */
export interface KernelPlan {
  steps: Step[]
  slots: number
  output: Source
  /** Tensors the run made outside kernels (a node's shape, a scalar): kept by the plan, freed by disposePlan. */
  constants: PlanTensor[]
}

/** A tensor made outside a kernel larger than this is not a shape or a scalar: the run is not recorded. */
const largestConstant = 16

const isPlainValue = (value: unknown): boolean =>
  value === null || typeof value !== 'object' ? typeof value !== 'function' : Array.isArray(value) && value.every(isPlainValue)

/**
 * Runs `execute` (a synchronous run of a graph in `runtime`) and records the kernels it calls.
 * The plan is undefined where the run did something a replay could not repeat.
 */
export function recordPlan<T extends PlanTensor>(
  runtime: PlanRuntime,
  inputs: Record<string, PlanTensor>,
  weights: readonly PlanTensor[],
  execute: () => T,
): { result: T; plan: KernelPlan | undefined } {
  const engine = runtime.engine()
  const sources = new Map<PlanTensor, Source>(weights.map((tensor) => [tensor, { tensor }]))
  for (const [name, tensor] of Object.entries(inputs)) sources.set(tensor, { input: name })
  const steps: Step[] = []
  const constants: PlanTensor[] = []
  let slots = 0
  let replayable = true
  let depth = 0
  const sourceOf = (tensor: PlanTensor | undefined): Source => {
    if (tensor === undefined) return undefined
    const known = sources.get(tensor)
    if (known !== undefined) return known
    const values = tensor.dataSync()
    if (values.length > largestConstant) replayable = false
    depth++
    const constant = runtime.keep(runtime.tensor(values.slice(), tensor.shape, tensor.dtype))
    depth--
    constants.push(constant)
    const source = { tensor: constant }
    sources.set(tensor, source)
    return source
  }
  const runKernel = engine.runKernel
  engine.runKernel = function (this: Engine, kernel, kernelInputs, attrs) {
    if (depth > 0) return runKernel.call(this, kernel, kernelInputs, attrs)
    const names = Array.isArray(kernelInputs) ? undefined : Object.keys(kernelInputs)
    const inputSources = Array.isArray(kernelInputs) ? kernelInputs.map(sourceOf) : Object.values(kernelInputs).map(sourceOf)
    if (!Object.values(attrs ?? {}).every(isPlainValue)) replayable = false
    const recordedAttrs = structuredClone(attrs)
    depth++
    let output: KernelOutput
    try {
      output = runKernel.call(this, kernel, kernelInputs, attrs)
    } finally {
      depth--
    }
    const outputs = (Array.isArray(output) ? output : [output]).map((tensor) => {
      const slot = slots++
      sources.set(tensor, { slot })
      return slot
    })
    steps.push({ kernel, names, sources: inputSources, attrs: recordedAttrs, outputs })
    return output
  }
  let result: T
  try {
    result = execute()
  } finally {
    engine.runKernel = runKernel
  }
  const output = sources.get(result)
  if (!replayable || output === undefined || !('slot' in output)) {
    for (const constant of constants) constant.dispose()
    return { result, plan: undefined }
  }
  return { result, plan: { steps, slots, output, constants } }
}

/** The plan's result for `inputs` (the graph's inputs, of the shapes the plan was recorded with); every other tensor it made is freed. */
export function replayPlan(runtime: PlanRuntime, plan: KernelPlan, inputs: Record<string, PlanTensor>): PlanTensor {
  const engine = runtime.engine()
  return runtime.tidy(() => {
    const slots = new Array<PlanTensor | undefined>(plan.slots)
    const tensorOf = (source: Source): PlanTensor | undefined => {
      if (source === undefined) return undefined
      if ('slot' in source) return slots[source.slot]
      return 'input' in source ? inputs[source.input] : source.tensor
    }
    for (const step of plan.steps) {
      const tensors = step.sources.map(tensorOf)
      const kernelInputs = step.names === undefined ? (tensors as PlanTensor[]) : Object.fromEntries(step.names.map((name, index) => [name, tensors[index]]))
      const output = engine.runKernel(step.kernel, kernelInputs, step.attrs)
      if (Array.isArray(output)) step.outputs.forEach((slot, index) => (slots[slot] = output[index]))
      else slots[step.outputs[0] ?? 0] = output
    }
    const result = tensorOf(plan.output)
    if (result === undefined) throw new Error('a kernel plan ended without its result')
    return result
  })
}

export function disposePlan(plan: KernelPlan): void {
  for (const constant of plan.constants) constant.dispose()
}
