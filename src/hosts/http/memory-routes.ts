import type { ContractRoute } from './memory-contract.js'
import { nodesRoutes } from './memory-nodes-routes.js'
import { recallRoutes } from './memory-recall-routes.js'
import { rulesRoutes } from './memory-rules-routes.js'

/** Seed 002's `/v1/memory/*` routes, in the document's order. */
export const memoryContractRoutes: readonly ContractRoute[] = [...recallRoutes, ...rulesRoutes, ...nodesRoutes]

/** The contract routes whose tools are all offered (a profile may leave some out). */
export function offeredContractRoutes(toolNames: readonly string[]): ContractRoute[] {
  const offered = new Set(toolNames)
  return memoryContractRoutes.filter((route) => route.tools.every((tool) => offered.has(tool)))
}
