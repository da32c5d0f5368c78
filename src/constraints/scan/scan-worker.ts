import { parentPort, workerData } from 'node:worker_threads'
import { scanDiskFile, type DiskScan } from './disk-scan.js'
import { compilePlan, createScanner, type PlanSpec, type ScanRequest } from './file-scan.js'

/** What a scan thread is started with: where the files are, the time stat signatures are taken against, and the plan its scanner is compiled from. */
export interface ScanThreadSetup {
  root: string
  statTime: bigint | undefined
  plan: PlanSpec
}

/** A chunk of files to read and scan. */
export interface ScanThreadRequest {
  id: number
  requests: ScanRequest[]
}

/** The chunk's results, in the order of its requests. */
export interface ScanThreadReply {
  id: number
  results: DiskScan[]
}

// A scan thread (scan-threads.ts): compiles the plan once, then reads and scans the chunks it is sent, one at a time.
const port = parentPort
if (port !== null) {
  const { root, statTime, plan } = workerData as ScanThreadSetup
  const scan = createScanner(compilePlan(plan))
  port.on('message', ({ id, requests }: ScanThreadRequest) => {
    port.postMessage({ id, results: requests.map((request) => scanDiskFile(root, request, scan, statTime)) } satisfies ScanThreadReply)
  })
}
