import { expect, it } from 'vitest'
import { embedWithModel, loadBundledModel } from '../../../../src/search/embedding/bundled-model.js'

// Vitest runs each test file in a process of its own, so the WebAssembly backend of TensorFlow.js starts
// in this file, after the wrapper below. It makes the backend's start slow, as a loaded machine does.
/** TypeScript declares the WebAssembly API only with the DOM's types. */
type Instantiate = (...args: unknown[]) => Promise<unknown>
const webAssembly = (globalThis as unknown as { WebAssembly: { instantiate: Instantiate } }).WebAssembly
const instantiate = webAssembly.instantiate.bind(webAssembly)
let delayedStarts = 0
webAssembly.instantiate = async (...args) => {
  delayedStarts++
  await new Promise((resolve) => setTimeout(resolve, 1500))
  return instantiate(...args)
}

it('loads the weights only once the WebAssembly backend has started, however slowly it starts', async () => {
  // Before the fix the weights, read in a few milliseconds, became tensors on a backend still
  // starting: PROVIDER_ERROR "Backend 'wasm' has not yet been initialized".
  const model = await loadBundledModel()
  expect(delayedStarts).toBeGreaterThan(0)
  expect(embedWithModel(model, ['who owns billing'])[0]).toHaveLength(512)
}, 60_000)
