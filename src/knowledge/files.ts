import { basename, resolve } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { walkFiles } from '../fs/walk.js'

const notKnowledge = /^(readme|index|changelog|license|.*template.*)\.md$/i

/**
 * Which paths of a source folder are knowledge items: markdown files other than
 * README/index/templates, outside the memory folders (the project's `memory.dir`
 * and each source's `memory/`), which hold memories, not knowledge.
 */
export function knowledgePathFilter(workspace: Workspace, sourceDirectory: string): (relativePath: string, isDirectory?: boolean) => boolean {
  const memoryDirs = [resolve(workspace.root, workspace.config.memory.dir), resolve(sourceDirectory, 'memory')]
  return (relativePath, isDirectory = false) => {
    const absolute = resolve(sourceDirectory, relativePath)
    if (memoryDirs.some((dir) => absolute === dir || absolute.startsWith(`${dir}/`))) return false
    return isDirectory || (relativePath.toLowerCase().endsWith('.md') && !notKnowledge.test(basename(relativePath)))
  }
}

/** The knowledge files of a source folder, posix paths relative to it, sorted. */
export function listKnowledgeFiles(workspace: Workspace, sourceDirectory: string): Promise<string[]> {
  return walkFiles(sourceDirectory, { include: knowledgePathFilter(workspace, sourceDirectory) })
}
