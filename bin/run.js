#!/usr/bin/env node
// CommonJS (bin/package.json): an ES module entry would start Node's ES module loader, 7 ms of every command.
const { existsSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')
const loader = join(root, 'dist', 'bundle', 'load-bundle.cjs')
const bundle = join(root, 'dist', 'bundle', 'mk.cjs')
if (!existsSync(loader) || !existsSync(bundle)) {
  // A source checkout that was never built: say so in mk's error shape, without a stack trace.
  const error = {
    success: false,
    errorCode: 'INTERNAL_ERROR',
    message: `mk is not built: ${existsSync(bundle) ? loader : bundle} is missing`,
    details: { hint: `run npm run build in ${root}` },
    retryable: false,
  }
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(error, null, 2)}\n`)
  else process.stderr.write(`Error [${error.errorCode}] ${error.message}\nhint: ${error.details.hint}\n`)
  process.exit(2)
}
const args = process.argv.slice(2)
const runMk = () => require(loader).loadBundle(bundle, args).run(root)
const fastPath = (name) => join(root, 'dist', 'bundle', `${name}.cjs`)
// `mk hook claude|cursor` runs before every agent edit, and `mk memory search` is what a terminal runs
// most: the workspace's local server answers them, when one runs, before mk itself is loaded
// (src/hosts/cli/hook-fast-path.ts, search-fast-path.ts); otherwise mk runs the command.
const answerFast =
  args[0] === 'hook' && (args[1] === 'claude' || args[1] === 'cursor') && existsSync(fastPath('hook-fast-path'))
    ? () => require(fastPath('hook-fast-path')).answerHookFromLocalServer(args)
    : args[0] === 'memory' && args[1] === 'search' && existsSync(fastPath('search-fast-path'))
      ? () => require(fastPath('search-fast-path')).answerSearchFromLocalServer(args)
      : undefined
if (answerFast !== undefined) {
  const exitWhenWritten = () => process.stdout.write('', () => process.stderr.write('', () => process.exit()))
  answerFast().then((answered) => (answered ? exitWhenWritten() : runMk()), runMk)
} else {
  runMk()
}
