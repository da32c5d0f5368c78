import { basename, resolve } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { walkFiles } from '../fs/walk.js'

const notKnowledge = /^(readme|index|changelog|license)\.md$/i
/**
 * ADR templates by their exact names (template.md, adr-template.md, 0000-template.md, adr000-template.md,
 * MADR's adr-template-minimal.md...): never by substring, so `adr-014-project-templates.md` loads.
 */
const templateFile = /^(?:adr[-_]?)?(?:0+[-_])?(?:adr[-_]?)?template(?:[-_](?:minimal|bare|bare-minimal|full|short|long))?\.md$/i

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
    return (
      isDirectory || (relativePath.toLowerCase().endsWith('.md') && !notKnowledge.test(basename(relativePath)) && !templateFile.test(basename(relativePath)))
    )
  }
}

/** The knowledge files of a source folder, posix paths relative to it, sorted. */
export function listKnowledgeFiles(workspace: Workspace, sourceDirectory: string): string[] {
  return walkFiles(sourceDirectory, { include: knowledgePathFilter(workspace, sourceDirectory) })
}
