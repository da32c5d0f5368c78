import type { Workspace } from '../config/workspace.js'
import { collectFiles } from './input/collect-files.js'
import { collectProposal } from './input/collect-proposal.js'
import { collectTree } from './input/collect-tree.js'
import type { IgnoreRules } from './input/ignore-rules.js'
import type { CheckInput } from './input/input.js'
import { prepareCheck, type CheckOptions, type CheckSource } from './pipeline/prepare.js'
import type { CheckReport } from './pipeline/report.js'
import { checkFull } from './strategies/full-check.js'

async function collectInput(workspace: Workspace, source: Exclude<CheckSource, { kind: 'staged' }>, rules: IgnoreRules): Promise<CheckInput> {
  switch (source.kind) {
    case 'tree':
      return collectTree(workspace.root, rules)
    case 'files':
      return collectFiles(workspace.root, source.paths, rules)
    case 'proposal':
      return collectProposal(workspace.root, source.files, source.dependencies)
  }
}

/** Check the workspace (or a staged, named or proposed subset of it) against every accepted constraint. */
export async function runCheck(workspace: Workspace, options: CheckOptions): Promise<CheckReport> {
  const preparation = await prepareCheck(workspace, options)
  const { source } = options
  if (source.kind === 'staged') {
    const { checkStaged } = await import('./strategies/staged-check.js')
    return checkStaged(preparation, source.indexFile)
  }
  const input = await collectInput(workspace, source, preparation.ignoreRules)
  if (source.kind === 'tree' && options.scanCache !== undefined) {
    const { checkTree } = await import('./strategies/tree-check.js')
    return checkTree(preparation, input, options.scanCache.directory)
  }
  return checkFull(preparation, input)
}
