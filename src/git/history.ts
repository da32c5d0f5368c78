import * as fs from 'node:fs'
import { dirname, relative } from 'node:path'
import git from 'isomorphic-git'
import { toPosix } from '../fs/walk.js'

export interface FileVersion {
  /** Short commit id. */
  version: string
  timestamp: string
  author: string
  message: string
}

/**
 * The commits that changed a file, newest first; undefined when the file is
 * not inside a git repository, empty when it was never committed.
 */
export async function fileHistory(absolutePath: string): Promise<FileVersion[] | undefined> {
  let dir: string
  try {
    dir = await git.findRoot({ fs, filepath: dirname(absolutePath) })
  } catch {
    return undefined
  }
  try {
    const commits = await git.log({ fs, dir, filepath: toPosix(relative(dir, absolutePath)), force: true, follow: true, cache: {} })
    return commits.map(({ oid, commit }) => ({
      version: oid.slice(0, 7),
      timestamp: new Date(commit.author.timestamp * 1000).toISOString(),
      author: commit.author.name,
      message: commit.message.trim(),
    }))
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return []
    throw error
  }
}

export interface FileVersionText extends FileVersion {
  text: string
}

/**
 * The file's content at each commit that changed it, newest first, at most `limit` of them; undefined when the
 * file is not inside a git repository. A commit where the file was deleted is left out.
 */
export async function fileTextOverHistory(absolutePath: string, limit: number): Promise<FileVersionText[] | undefined> {
  let dir: string
  try {
    dir = await git.findRoot({ fs, filepath: dirname(absolutePath) })
  } catch {
    return undefined
  }
  const filepath = toPosix(relative(dir, absolutePath))
  const cache = {}
  let commits: Awaited<ReturnType<typeof git.log>>
  try {
    commits = await git.log({ fs, dir, filepath, force: true, cache })
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') return []
    throw error
  }
  const versions: FileVersionText[] = []
  for (const { oid, commit } of commits.slice(0, limit)) {
    try {
      const { blob } = await git.readBlob({ fs, dir, oid, filepath, cache })
      versions.push({
        version: oid.slice(0, 7),
        timestamp: new Date(commit.author.timestamp * 1000).toISOString(),
        author: commit.author.name,
        message: commit.message.trim(),
        text: new TextDecoder().decode(blob),
      })
    } catch (error) {
      if ((error as { code?: string }).code !== 'NotFoundError') throw error
    }
  }
  return versions
}
