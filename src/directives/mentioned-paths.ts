import { posix } from 'node:path'
import { pathsIn } from './terms.js'

/**
 * The files and folders a rule names (`src/app.ts`, `src/queues/*`, `packages/types/`), read from
 * the folder its file is scoped to: in `worker/AGENTS.md`, `src/app.ts` is `worker/src/app.ts`. A
 * task that touches one of them is about that rule, whatever words either uses.
 */
export interface MentionedPath {
  /** Workspace-relative: a file, or a folder ending in `/`. */
  path: string
  isFile: boolean
  /** A file name alone (`Cargo.toml`): a file of that name in any folder; a folder name alone (`test/`): the folder of that name a file sits in. */
  anyFolder?: boolean
}

/** The folder a scoped item's rules are read from: its single `folder/**` glob, else the workspace root. */
function scopeFolder(appliesTo: readonly string[]): string {
  const folders = appliesTo.map((entry) => /^([^*?[{]+)\/\*\*$/.exec(entry)?.[1]).filter((folder): folder is string => folder !== undefined)
  return folders.length === 1 ? `${folders[0] ?? ''}/` : ''
}

/** A file name written as code on its own (`Cargo.toml`, `package.json`): the rule is about every file of that name. */
const fileNameInCode = /`([\w-][\w.-]*\.[a-z]{1,5})`/g

/** A folder name written as code on its own (`test/`, `__tests__/`): the rule is about the files every folder of that name holds. */
const folderNameInCode = /`([\w-][\w.-]*)\/`/g

export function mentionedPaths(text: string, appliesTo: readonly string[]): MentionedPath[] {
  const found = new Map<string, MentionedPath>()
  for (const match of text.matchAll(fileNameInCode)) {
    const name = match[1] ?? ''
    found.set(name, { path: name, isFile: true, anyFolder: true })
  }
  const scope = scopeFolder(appliesTo)
  for (const match of text.matchAll(folderNameInCode)) {
    const path = `${scope}${match[1] ?? ''}/`
    found.set(path, { path, isFile: false, anyFolder: true })
  }
  if (!text.includes('/')) return [...found.values()]
  // A link to a site is not a file of the repository.
  for (const token of pathsIn(text.replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, ' '))) {
    const segments = token.replace(/^(?:\.\/)+/, '').split('/')
    const glob = segments.findIndex((segment) => /[*?{[]/.test(segment))
    const plain = (glob < 0 ? segments : segments.slice(0, glob)).filter((segment) => segment !== '')
    const isFile = glob < 0 && !token.endsWith('/') && /\.[a-z]{1,5}$/.test(plain.at(-1) ?? '')
    // One folder (`src/`) is the whole package: too broad to say what a rule is about.
    if (plain.length < 2) continue
    const resolved = posix.normalize(`${scope}${plain.join('/')}`)
    if (resolved.startsWith('..')) continue
    const path = isFile ? resolved : `${resolved.replace(/\/$/, '')}/`
    found.set(path, { path, isFile })
  }
  return [...found.values()]
}

/** Fewest leading folders a named path and a task's file share to be in one feature (`web/src/features/public-api/`), not only one package. */
const featureDepth = 3

/**
 * Whether a named file sits beside the task's file in the folder that holds the file's own folder: a rule naming
 * `web/src/features/public-api/server/withMiddlewares.ts` is about the feature whose `types/` the task changes.
 */
function besideTaskFile(mention: MentionedPath, path: string): boolean {
  // A folder may be prose ("part/content types"); a file with its extension is named on purpose.
  if (!mention.isFile || mention.anyFolder === true) return false
  const taskFolders = posix.dirname(path).split('/')
  const mentionFolders = posix.dirname(mention.path).split('/')
  let shared = 0
  while (shared < taskFolders.length && shared < mentionFolders.length && taskFolders[shared] === mentionFolders[shared]) shared++
  return shared >= featureDepth && shared >= taskFolders.length - 1
}

/**
 * Whether a file sits directly in a folder of the name a rule wrote alone (`test/`), inside the rule's scope
 * (`worker/test/` means every `test/` under `worker/`). Only the folder the file sits in: `src/` alone would otherwise hold
 * every file of a package.
 */
function inFolderNamed(mention: string, path: string): boolean {
  const folder = `${posix.dirname(path)}/`
  const scope = mention.slice(0, mention.slice(0, -1).lastIndexOf('/') + 1)
  return folder.startsWith(scope) && (folder === mention || folder.endsWith(`/${mention.slice(scope.length)}`))
}

/**
 * How closely a rule's named paths meet the task's files: 2 when it names one of them, 1 when it names a folder holding
 * one or a file beside one in its feature's folder, else 0.
 */
export function mentionMatch(mentioned: readonly MentionedPath[], taskPaths: readonly string[]): number {
  let best = 0
  for (const taskPath of taskPaths) {
    const path = taskPath.replace(/^\.\//, '')
    for (const mention of mentioned) {
      if (mention.isFile && (mention.anyFolder === true ? posix.basename(path) === mention.path : mention.path === path)) return 2
      if (!mention.isFile && mention.anyFolder === true) {
        if (inFolderNamed(mention.path, path)) best = 1
      } else if ((!mention.isFile && path.startsWith(mention.path)) || besideTaskFile(mention, path)) best = 1
    }
  }
  return best
}
