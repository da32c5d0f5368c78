import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startGitServer } from '../test/helpers/git-server.js'

/**
 * Serve the bare git repositories in a folder over smart HTTP on 127.0.0.1 (git
 * http-backend behind node's http module): a stand-in for a company git host,
 * used by the sync walkthrough in docs/sync.md and by the tests.
 *   node dist/scripts/serve-git.js FOLDER [--port 8765] [--token SECRET]
 */
const { values, positionals } = parseArgs({ allowPositionals: true, options: { port: { type: 'string', default: '8765' }, token: { type: 'string' } } })
const folder = positionals[0]
if (folder === undefined) {
  process.stderr.write('usage: node dist/scripts/serve-git.js FOLDER_OF_BARE_REPOS [--port 8765] [--token SECRET]\n')
  process.exit(2)
}
const server = await startGitServer({ projectRoot: resolve(folder), port: Number(values.port), ...(values.token === undefined ? {} : { token: values.token }) })
process.stdout.write(`serving ${resolve(folder)} at ${server.url}/<name>.git (Ctrl-C to stop)\n`)
process.on('SIGINT', () => void server.close().then(() => process.exit(0)))
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)))
