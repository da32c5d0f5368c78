import { MkError } from '../../errors.js'
import { classifyText, type CheckInput, type ProposedDependency } from './input.js'
import { requireInsideWorkspace } from '../../fs/path-guard.js'

export interface ProposedFile {
  path: string
  content: string
}

/** A change that does not exist on disk yet: file contents and dependencies an agent intends to add. */
export function collectProposal(root: string, files: readonly ProposedFile[], dependencies: readonly ProposedDependency[]): CheckInput {
  const contents = new Map<string, string>()
  files.forEach((file, index) => {
    const path = requireInsideWorkspace(root, file.path, `files[${index}].path`)
    if (contents.has(path)) throw new MkError('INVALID_INPUT', `files[${index}].path: ${path} is given twice`, { details: { path } })
    contents.set(path, file.content)
  })
  return {
    mode: 'proposal',
    paths: [...contents.keys()].sort(),
    complete: false,
    read: async (path) => classifyText(contents.get(path) ?? ''),
    dependencies: [...dependencies],
    symlinksSkipped: 0,
  }
}
