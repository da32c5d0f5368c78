import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { Workspace } from '../../config/workspace.js'
import { MkError } from '../../errors.js'
import { writeFileAtomic } from '../../fs/atomic-write.js'
import { readJsonLines } from '../../fs/json-lines.js'
import { readBytesIfExists } from '../../fs/read-if-exists.js'
import { toPosix } from '../../fs/walk.js'
import { ledgerFile } from '../../memory/activations.js'
import { readRelations } from '../../memory/graph-store.js'
import { commitChange, importedHistoryFile } from '../../memory/history.js'
import { parseMemory } from '../../memory/format.js'
import { folderOfKey, requireWritableFolder, visibleFolders, type MemoryFolder } from '../../memory/locations.js'
import { receiptsFile } from '../../memory/receipts.js'
import { listMemoryFiles, memoryFile } from '../../memory/store.js'
import { formatTierTable, readTierTable, tierTableFile } from '../../memory/tier-table.js'
import { ledgerName, outcomesFolder } from '../../policy-rules/outcomes.js'
import type { TenantTransfer, TransferItem } from '../transfer.js'
import { importCommitMarker, readFilesHistory } from './transfer-history.js'

const saltFile = (workspace: Workspace): string => join(workspace.stateDir, 'receipts-salt')
const relationsFile = (folder: MemoryFolder): string => join(folder.dir, '.relations.jsonl')
const jsonLines = (values: readonly unknown[]): string => values.map((value) => `${JSON.stringify(value)}\n`).join('')
const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

async function subfolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(byKey)
}

/** Every memory folder the tenant may hold: the shared layers, the user layer, and each agent's and session's folder found in MK_HOME. */
async function storedFolders(workspace: Workspace): Promise<MemoryFolder[]> {
  const home = join(workspace.mkHome, 'memory')
  const keys = visibleFolders(workspace, { agentId: undefined, sessionId: undefined }).map((folder) => folder.key)
  for (const agent of await subfolders(join(home, 'agent'))) keys.push(`agent/${agent}`)
  for (const session of await subfolders(join(home, 'session'))) keys.push(`session/${session}`)
  for (const agent of await subfolders(join(home, 'agent-user'))) keys.push(`user/${agent}`)
  for (const agent of await subfolders(join(home, 'agent-session'))) {
    for (const session of await subfolders(join(home, 'agent-session', agent))) keys.push(`session/${agent}/${session}`)
  }
  return keys
    .sort(byKey)
    .flatMap((key) => folderOfKey(workspace, key) ?? [])
    .filter((folder) => !folder.key.includes('/') || folder.private || existsSync(folder.dir))
}

/**
 * One files tenant (a workspace and its MK_HOME) in the portable form: memory files as written,
 * the tier tables, ledgers and receipts, and MK_HOME's git history. An import writes each file
 * atomically and commits the private ones in one commit; its history is kept as the source had it.
 */
export class FilesTransfer implements TenantTransfer {
  readonly kind = 'files'

  constructor(private readonly workspace: Workspace) {}

  async read(progress: (done: number) => void): Promise<TransferItem[]> {
    const { workspace } = this
    const items: TransferItem[] = []
    const folders = await storedFolders(workspace)
    for (const folder of folders) {
      for (const name of listMemoryFiles(folder).sort(byKey)) {
        items.push({ kind: 'memory', folder: folder.key, text: await readFile(join(folder.dir, name), 'utf8') })
        if (items.length % 1000 === 0) progress(items.length)
      }
    }
    for (const folder of folders) {
      for (const [id, tier] of [...(await readTierTable(folder))].sort(([a], [b]) => byKey(a, b))) items.push({ kind: 'tier', folder: folder.key, id, tier })
    }
    const { history, outcomes } = await readFilesHistory(workspace.mkHome, outcomesFolder(workspace))
    items.push(...history)
    for (const folder of folders) {
      for (const entry of await readJsonLines(ledgerFile(folder)))
        items.push({ kind: 'activation', folder: folder.key, entry: entry as Record<string, unknown> })
    }
    for (const folder of folders) for (const relation of await readRelations(folder)) items.push({ kind: 'relation', folder: folder.key, relation })
    for (const receipt of await readJsonLines(receiptsFile(workspace))) items.push({ kind: 'receipt', receipt: receipt as Record<string, unknown> })
    const salt = readBytesIfExists(saltFile(workspace))
    if (salt !== undefined) items.push({ kind: 'receipt_salt', salt: salt.toString('base64') })
    items.push(...outcomes)
    progress(items.length)
    return items
  }

  async isEmpty(): Promise<boolean> {
    return (await this.read(() => undefined)).every((item) => item.kind === 'receipt_salt')
  }

  async write(items: readonly TransferItem[], options: { replace: boolean; progress: (done: number) => void }): Promise<void> {
    const { workspace } = this
    // Every folder is found (and allowed) before the first file is written.
    const folders = new Map<string, MemoryFolder>()
    for (const item of items) {
      if (!('folder' in item) || item.folder === null || folders.has(item.folder)) continue
      const folder = folderOfKey(workspace, item.folder)
      if (folder === undefined) {
        if (item.kind === 'history') continue
        throw new MkError('INVALID_INPUT', `the file holds memories of ${item.folder}, a knowledge source this workspace does not configure`, {
          details: { folder: item.folder, hint: 'add the source to knowledge.sources in the tenant .mkrc, then import again' },
        })
      }
      requireWritableFolder(workspace, folder)
      folders.set(item.folder, folder)
    }
    if (options.replace) await this.clear()
    const written: string[] = []
    const write = async (path: string, content: string | Uint8Array): Promise<void> => {
      await writeFileAtomic(path, content)
      written.push(path)
    }
    const grouped = <K extends TransferItem['kind']>(kind: K): Map<string, Extract<TransferItem, { kind: K }>[]> => {
      const groups = new Map<string, Extract<TransferItem, { kind: K }>[]>()
      for (const item of items) {
        if (item.kind !== kind) continue
        const typed = item as Extract<TransferItem, { kind: K }>
        const key = 'folder' in typed && typeof typed.folder === 'string' ? typed.folder : ''
        groups.set(key, [...(groups.get(key) ?? []), typed])
      }
      return groups
    }
    const folderOf = (key: string): MemoryFolder => {
      const folder = folders.get(key)
      if (folder === undefined) throw new Error(`folder ${key} was not resolved`)
      return folder
    }
    let done = 0
    for (const [key, memories] of grouped('memory')) {
      const folder = folderOf(key)
      for (const memory of memories) {
        await write(memoryFile(folder, parseMemory(memory.text).id), memory.text)
        if (++done % 1000 === 0) options.progress(done)
      }
    }
    for (const [key, tiers] of grouped('tier')) await write(tierTableFile(folderOf(key)), formatTierTable(new Map(tiers.map((tier) => [tier.id, tier.tier]))))
    for (const [key, entries] of grouped('activation')) await write(ledgerFile(folderOf(key)), jsonLines(entries.map((entry) => entry.entry)))
    for (const [key, relations] of grouped('relation')) await write(relationsFile(folderOf(key)), jsonLines(relations.map((relation) => relation.relation)))
    const receipts = items.flatMap((item) => (item.kind === 'receipt' ? [item.receipt] : []))
    if (receipts.length > 0) await write(receiptsFile(workspace), jsonLines(receipts))
    const salt = items.find((item) => item.kind === 'receipt_salt')
    if (salt !== undefined) {
      // The key of the receipts' query hashes: readable by its owner only from the first byte, as receiptSalt makes it.
      await mkdir(workspace.stateDir, { recursive: true })
      await rm(saltFile(workspace), { force: true })
      await writeFile(saltFile(workspace), Buffer.from(salt.salt, 'base64'), { mode: 0o600, flag: 'wx' })
    }
    const outcomes = items.flatMap((item) => (item.kind === 'outcome' ? [item] : []))
    const ledgers = new Map<string, unknown[]>()
    for (const outcome of outcomes) {
      const file = join(workspace.mkHome, outcomesFolder(workspace), ledgerName(outcome.event.rule_id))
      ledgers.set(file, [...(ledgers.get(file) ?? []), outcome.event])
    }
    for (const [file, events] of ledgers) await write(file, jsonLines(events))
    const archive = items.filter((item) => item.kind === 'history' || item.kind === 'outcome')
    if (archive.length > 0) await write(join(workspace.mkHome, importedHistoryFile), jsonLines(archive))
    const inHome = written.map((path) => relative(workspace.mkHome, path)).filter((path) => !path.startsWith('..'))
    if (inHome.length > 0 || options.replace) {
      await commitChange(workspace.mkHome, {
        add: inHome.map(toPosix),
        message: `${importCommitMarker}: ${items.length} items (the history before it is in ${importedHistoryFile})\n`,
      })
    }
    options.progress(items.length)
  }

  /** --replace: the tenant's memories and ledgers go (MK_HOME's git keeps the old versions); its configuration and knowledge stay. */
  private async clear(): Promise<void> {
    const { workspace } = this
    const removed: string[] = []
    const remove = async (path: string): Promise<void> => {
      if (!existsSync(path)) return
      await rm(path, { recursive: true, force: true })
      removed.push(path)
    }
    for (const folder of await storedFolders(workspace)) {
      for (const name of listMemoryFiles(folder)) await remove(join(folder.dir, name))
      for (const file of [tierTableFile(folder), ledgerFile(folder), relationsFile(folder)]) await remove(file)
    }
    const outcomes = join(workspace.mkHome, outcomesFolder(workspace))
    for (const name of await readdir(outcomes).catch(() => [])) await remove(join(outcomes, name))
    for (const path of [receiptsFile(workspace), join(workspace.mkHome, importedHistoryFile)]) await remove(path)
    const inHome = removed.map((path) => toPosix(relative(workspace.mkHome, path))).filter((path) => !path.startsWith('..'))
    if (inHome.length > 0) await commitChange(workspace.mkHome, { add: [], remove: inHome, message: `${importCommitMarker}: replace the tenant's data\n` })
  }
}
