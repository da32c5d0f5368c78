import { parentPort, workerData } from 'node:worker_threads'
import { loadWorkspace } from '../../config/load.js'
import { reportLocksTo } from '../../fs/lock-file.js'
import { registeredTools } from '../../tools/catalog/registered.js'
import { socketOnlyTools } from '../../tools/catalog/socket-only.js'
import { serveLimitsFrom } from './serve-limits.js'
import { runToolCall } from './tool-call.js'
import { TenantStores } from './tenants.js'
import { testOnlySpin } from './test-only-spin.js'
import type { ThreadData, ThreadNote, ThreadReply, ThreadRequest } from './tool-threads.js'
import { warmWritePath } from './warm-writes.js'

// A tool thread of `mk serve`: runs the calls the main thread sends it on its own connections to the
// tenants' indexes (SQLite in WAL mode lets every thread read while one writes), so no call's work
// ever holds the thread that accepts requests.
const data = workerData as ThreadData
const port = parentPort
const { maxScopesPerTenant, toolTimeoutMs } = serveLimitsFrom(data.env)
const spin = testOnlySpin(data.env)
// The main thread releases the locks of a thread it stops: it learns of each before it is written.
reportLocksTo((note) => {
  port?.postMessage({ lock: note } satisfies ThreadNote)
  spin.lockNote(note)
})
const stores = Promise.resolve(
  'dataDir' in data.layout
    ? new TenantStores({ dataDir: data.layout.dataDir }, data.database, maxScopesPerTenant)
    : loadWorkspace({ cwd: data.layout.cwd, env: data.layout.env }).then((workspace) => new TenantStores({ workspace }, data.database, maxScopesPerTenant)),
)
// The main thread routes only what it offers: the socket-only tools are never called here on a TCP server.
const tools = Promise.all([registeredTools(), socketOnlyTools()]).then(
  ([registered, socketOnly]) => new Map([...registered, ...socketOnly].map((tool) => [tool.name, tool])),
)

async function answer(request: ThreadRequest): Promise<ThreadReply> {
  switch (request.type) {
    case 'call':
      spin.before(request.call)
      try {
        return { id: request.id, outcome: await runToolCall(await stores, await tools, request.call, data.env, toolTimeoutMs) }
      } finally {
        spin.after()
      }
    case 'warm-writes':
      await warmWritePath(request.options)
      return { id: request.id }
    case 'close-tenant':
      await (await stores).close(request.tenantId)
      return { id: request.id }
    case 'close':
      await (await stores).closeAll()
      return { id: request.id }
  }
}

port?.on('message', (request: ThreadRequest) => {
  answer(request).then(
    (reply) => port.postMessage(reply),
    (error: unknown) => port.postMessage({ id: request.id, failure: (error as Error).message } satisfies ThreadReply),
  )
})
