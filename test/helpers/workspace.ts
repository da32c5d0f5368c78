import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import * as fs from 'node:fs'
import git from 'isomorphic-git'
import { afterEach } from 'vitest'

export interface TempWorkspace {
  root: string
  /** A private MK_HOME for this workspace, so tests never touch ~/.mk. */
  mkHome: string
  write(path: string, content: string): Promise<void>
  cleanup(): Promise<void>
}

/** A fresh folder with the given files (paths relative to it). */
export async function makeWorkspace(files: Record<string, string> = {}): Promise<TempWorkspace> {
  const base = await mkdtemp(join(tmpdir(), 'mk-test-'))
  const root = join(base, 'ws')
  const mkHome = join(base, 'home')
  await mkdir(root, { recursive: true })
  const write = async (path: string, content: string): Promise<void> => {
    const target = join(root, path)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, content)
  }
  for (const [path, content] of Object.entries(files)) await write(path, content)
  return { root, mkHome, write, cleanup: () => rm(base, { recursive: true, force: true }) }
}

const author = { name: 'Test Author', email: 'test@example.com' }

/** Make the folder a git repository and commit everything in it. */
export async function gitInit(dir: string): Promise<void> {
  await git.init({ fs, dir, defaultBranch: 'main' })
}

export async function gitCommitAll(dir: string, message: string, timestamp?: number): Promise<string> {
  const status = await git.statusMatrix({ fs, dir })
  for (const [filepath, , worktree] of status) {
    if (worktree === 0) await git.remove({ fs, dir, filepath })
    else await git.add({ fs, dir, filepath })
  }
  return git.commit({ fs, dir, message, author: timestamp === undefined ? author : { ...author, timestamp, timezoneOffset: 0 } })
}

/** `workspace(files)` makes a fresh folder as makeWorkspace does; every one it made is removed after each test. */
export function workspacesRemovedAfterEach(): (files: Record<string, string>) => Promise<TempWorkspace> {
  const made: TempWorkspace[] = []
  afterEach(async () => {
    for (const workspace of made.splice(0)) await workspace.cleanup()
  })
  return async (files) => {
    const workspace = await makeWorkspace(files)
    made.push(workspace)
    return workspace
  }
}
