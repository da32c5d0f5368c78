import type { Workspace } from '../config/workspace.js'
import type { StoreIndex } from './index-store.js'
import type { ActivationLedger, GraphLedger, OutcomeLedger, ReceiptLedger, TierLedger } from './ledgers.js'
import type { MemoryStore } from './memories.js'

/**
 * Where one tenant's workspace keeps its memories, their history, its search index and its
 * ledgers. Tools, use cases and hooks reach data only through this; the host picks the
 * implementation once (src/tools/open-store.ts). Today: files + SQLite (src/stores/files/).
 */
export interface Store {
  /** Which implementation this is, as doctor and health report it. */
  readonly kind: string
  readonly memories: MemoryStore
  readonly index: StoreIndex
  readonly activations: ActivationLedger
  readonly tiers: TierLedger
  readonly receipts: ReceiptLedger
  readonly outcomes: OutcomeLedger
  readonly graph: GraphLedger
  /** What an operator must fix about where the data is kept (a database role row-level security does not bind); absent or empty for files. */
  problems?(): Promise<string[]>
}

/** Long-lived resources of a process (an open index, a pool), shared by every call for one tenant and closed with it. */
export interface StoreResources {
  get<T>(key: string, create: () => Promise<T>, close?: (value: T) => Promise<void> | void): Promise<T>
}

/** A team server's tenant and scope in a database (`mk serve --store postgres://…`): the rows the store reads and writes. */
export interface DatabasePlace {
  url: string
  /** The most connections this process (or tool thread) opens to it. */
  poolSize: number
  tenantId: string
  scope: string
}

/** What a store is opened for: one tenant's workspace, within the host's resources; in a database when `database` says where. */
export interface StorePlace {
  workspace: Workspace
  resources: StoreResources
  database?: DatabasePlace | undefined
}
