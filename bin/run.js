#!/usr/bin/env node
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const loader = new URL('../dist/src/cli/load-bundle.js', import.meta.url)
const bundle = new URL('../dist/bundle/mk.cjs', import.meta.url)
if (!existsSync(loader) || !existsSync(bundle)) {
  // A source checkout that was never built: say so in mk's error shape, without a stack trace.
  const root = fileURLToPath(new URL('..', import.meta.url))
  const error = {
    success: false,
    errorCode: 'INTERNAL_ERROR',
    message: `mk is not built: ${fileURLToPath(bundle)} is missing`,
    details: { hint: `run npm run build in ${root}` },
    retryable: false,
  }
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(error, null, 2)}\n`)
  else process.stderr.write(`Error [${error.errorCode}] ${error.message}\nhint: ${error.details.hint}\n`)
  process.exit(2)
}
const { loadBundle } = await import(loader.href)
await loadBundle(fileURLToPath(bundle)).run(import.meta.url)
