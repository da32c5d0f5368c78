import type { AnyTool } from './define.js'
import { hookInstall } from './hook/install.js'
import { init } from './init.js'
import { knowledgeCheck } from './knowledge/check.js'
import { knowledgeLint } from './knowledge/lint.js'
import { knowledgeList } from './knowledge/list.js'
import { knowledgeNew } from './knowledge/new.js'
import { knowledgeQuery } from './knowledge/query.js'
import { knowledgeShow } from './knowledge/show.js'
import { knowledgeUpdateBaseline } from './knowledge/update-baseline.js'
import { evalRun } from './eval/run.js'
import { indexRebuild } from './index/rebuild.js'
import { indexStatus } from './index/status.js'
import { indexUpdate } from './index/update.js'
import { modelList } from './model/list.js'
import { modelPull } from './model/pull.js'
import { memoryAdd } from './memory/add.js'
import { memoryDelete } from './memory/delete.js'
import { memoryList } from './memory/list.js'
import { memoryRestore } from './memory/restore.js'
import { memorySearch } from './memory/search.js'
import { memoryShow } from './memory/show.js'
import { memoryActivate } from './memory/activate.js'
import { openNodes, readGraph, searchNodes } from './graph/read.js'
import { addObservations, createEntities, createRelations, deleteEntities, deleteObservations, deleteRelations } from './graph/write.js'
import { memoryConsolidate } from './memory/consolidate.js'
import { memoryRecall } from './memory/recall.js'
import { memoryReceipts } from './memory/receipts.js'
import { memoryMaintain } from './memory/maintain.js'
import { memoryRehydrate } from './memory/rehydrate.js'
import { rulesDetectContext } from './directives/context.js'
import { rulesQueryDirectives } from './directives/directives.js'

import { doctorCheck } from './doctor/check.js'
import { rulesExport } from './directives/export.js'
import { rulesExportWrite } from './directives/export-write.js'
import { rulesUpsertMarkdown } from './directives/ingest.js'
import { rulesEvaluate } from './policy-rules/evaluate.js'
import { toolsFeedback } from './policy-rules/feedback.js'
import { toolsSelect } from './policy-rules/select.js'
import { syncNow } from './sync/now.js'
import { syncStatusTool } from './sync/status.js'
import { toolsSearch } from './catalog/search.js'
import { handOverToolList } from './catalog/tool-list.js'
import { siteBuild } from './site/build.js'

/**
 * Every tool mk offers. The MCP server, the manifest, the skill document and the
 * function schemas are generated from this list; CLI commands import their tool directly.
 * Each keeps its own schema types here, so the library's methods are typed from it (src/hosts/library/).
 */
export const typedTools = [
  init,
  knowledgeList,
  knowledgeQuery,
  knowledgeShow,
  knowledgeNew,
  knowledgeLint,
  knowledgeCheck,
  knowledgeUpdateBaseline,
  hookInstall,
  memoryAdd,
  memorySearch,
  memoryRecall,
  memoryReceipts,
  memoryList,
  memoryShow,
  memoryDelete,
  memoryRestore,
  memoryActivate,
  memoryMaintain,
  memoryRehydrate,
  memoryConsolidate,
  // the reference MCP memory server's tools, over mk memories
  createEntities,
  createRelations,
  addObservations,
  deleteEntities,
  deleteObservations,
  deleteRelations,
  readGraph,
  searchNodes,
  openNodes,
  rulesQueryDirectives,
  rulesDetectContext,
  indexStatus,
  indexUpdate,
  indexRebuild,
  modelPull,
  modelList,
  evalRun,
  // sync
  syncNow,
  syncStatusTool,
  doctorCheck,
  // agent rules files
  rulesUpsertMarkdown,
  rulesExport,
  rulesExportWrite,
  // policy rules
  rulesEvaluate,
  toolsSelect,
  toolsFeedback,
  // finding and loading the tools an MCP session does not offer yet
  toolsSearch,
  // the knowledge site
  siteBuild,
] as const satisfies readonly AnyTool[]

/** The registry with each tool's schemas erased, for hosts that serve tools by name. */
export const tools: readonly AnyTool[] = typedTools
handOverToolList(tools)
