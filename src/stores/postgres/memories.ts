import type { PoolClient } from 'pg'
import { MkError } from '../../errors.js'
import type { KnowledgeProblem } from '../../knowledge/model.js'
import { formatMemory, parseMemory } from '../../memory/format.js'
import type { DeletedVersion } from '../../memory/history.js'
import { isMemoryId } from '../../memory/ids.js'
import { visibleFolders, type MemoryFolder, type MemoryIdentity } from '../../memory/locations.js'
import { memoryDocument } from '../../memory/memory-document.js'
import type { MemoryRecord, MemoryTier } from '../../memory/model.js'
import type { AddOutcome, StoredMemory, UnreadableMemory } from '../../memory/store.js'
import { isVisibleTo, restrictionOf, unownedPrivateProblem, type MemoryConsumer } from '../../memory/visibility.js'
import { dedupKey } from '../../search/normalise.js'
import type { AddOptions, MemoryStore, WriteOptions } from '../memories.js'
import { removeDocuments, setStatuses, upsertDocuments } from './documents.js'
import { recordChange } from './history.js'
import { preparedRead, type TenantScope } from './place.js'

/** How messages name a memory kept in the database. */
export const placeOfMemory = (folder: Pick<MemoryFolder, 'key'>, id: string): string => `postgres:${folder.key}/${id}`

const refsStatement = preparedRead("SELECT id, record->'refs' AS refs FROM mk_memories WHERE scope = $1 AND folder = $2 AND id = ANY($3::text[])")

const restrictionKey = (record: MemoryRecord, folder: MemoryFolder): string => JSON.stringify(restrictionOf(record, folder) ?? null)

const notFound = (id: string): MkError =>
  new MkError('NOT_FOUND', `no memory ${id} in the layers visible here`, {
    details: { memoryId: id, hint: 'mk memory list shows the memories; agent and session memories need --agent or --session' },
  })

/**
 * Memories as rows of one tenant's scope, by folder; every write is one transaction that also
 * keeps the search documents and the append-only history in step, and returns the change's commit id.
 */
export class PostgresMemories implements MemoryStore {
  constructor(private readonly place: TenantScope) {}

  private get scope(): string {
    return this.place.scope
  }

  async ids(folder: MemoryFolder): Promise<string[]> {
    return this.place.run(async (client) => {
      const rows = await client.query<{ id: string }>('SELECT id FROM mk_memories WHERE scope = $1 AND folder = $2 ORDER BY id', [this.scope, folder.key])
      return rows.rows.map((row) => row.id)
    })
  }

  async read(folder: MemoryFolder, id: string): Promise<StoredMemory | UnreadableMemory | undefined> {
    return this.place.run(async (client) => (await this.readIn(client, folder, [id]))[0])
  }

  /** Memories of one folder with their current tier, in the order asked. */
  private async readIn(client: PoolClient, folder: MemoryFolder, ids: readonly string[]): Promise<(StoredMemory | UnreadableMemory)[]> {
    const rows = await client.query<{ id: string; record: MemoryRecord; tier: MemoryTier | null }>(
      `SELECT m.id, m.record, t.tier FROM mk_memories m
       LEFT JOIN mk_tiers t ON t.tenant_id = m.tenant_id AND t.scope = m.scope AND t.folder = m.folder AND t.id = m.id
       WHERE m.scope = $1 AND m.folder = $2 AND m.id = ANY($3)`,
      [this.scope, folder.key, [...ids]],
    )
    const byId = new Map(rows.rows.map((row) => [row.id, row]))
    return ids.flatMap((id): (StoredMemory | UnreadableMemory)[] => {
      const row = byId.get(id)
      if (row === undefined) return []
      const record = { ...row.record, tier: row.tier ?? row.record.tier }
      const file = placeOfMemory(folder, id)
      const unowned = unownedPrivateProblem(record, folder)
      return unowned === undefined ? [{ record, folder, file }] : [{ file, problem: unowned, code: 'invalid_private_memory_owner' as const }]
    })
  }

  /** The refs of these memories that have some, in one round trip (a search asks them of the page it shows). */
  async refs(folder: MemoryFolder, ids: readonly string[]): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map()
    const rows = await this.place.read<{ id: string; refs: string[] | null }>(refsStatement, [this.scope, folder.key, [...ids]])
    return new Map(rows.filter((row) => (row.refs ?? []).length > 0).map((row) => [row.id, row.refs ?? []]))
  }

  async find(identity: MemoryIdentity, id: string): Promise<StoredMemory> {
    if (!isMemoryId(id)) {
      throw new MkError('INVALID_INPUT', `"${id}" is not a memory id: ids look like mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3`, { details: { field: 'memoryId' } })
    }
    const folders = visibleFolders(this.place.workspace, identity)
    const found = await this.place.run(async (client) => {
      const rows = await client.query<{ folder: string }>('SELECT folder FROM mk_memories WHERE scope = $1 AND id = $2 AND folder = ANY($3)', [
        this.scope,
        id,
        folders.map((folder) => folder.key),
      ])
      const held = new Set(rows.rows.map((row) => row.folder))
      // The most specific layer first, as the files store looks.
      const folder = folders.find((candidate) => held.has(candidate.key))
      return folder === undefined ? undefined : (await this.readIn(client, folder, [id]))[0]
    })
    if (found === undefined) throw notFound(id)
    if (!('record' in found)) throw new MkError('INVALID_INPUT', `${found.file}: ${found.problem}`, { details: { file: found.file } })
    return found
  }

  async findVisible(identity: MemoryIdentity, consumer: MemoryConsumer, id: string): Promise<StoredMemory> {
    const stored = await this.find(identity, id)
    if (!isVisibleTo(restrictionOf(stored.record, stored.folder), consumer)) throw notFound(id)
    return stored
  }

  /** The same content visible to the same readers in the same folder is found under the folder's lock, on any replica, before the insert. */
  async add(folder: MemoryFolder, record: MemoryRecord, options: AddOptions): Promise<AddOutcome> {
    return this.place.run(async (client) => {
      await this.place.lockFolder(client, folder.key)
      const same = await client.query<{ id: string }>(
        'SELECT id FROM mk_memories WHERE scope = $1 AND folder = $2 AND dedup_key = $3 AND restriction = $4 ORDER BY id LIMIT 1',
        [this.scope, folder.key, dedupKey(record.content), restrictionKey(record, folder)],
      )
      const duplicate = same.rows[0]?.id
      if (duplicate !== undefined) return { deduplicated: true as const, id: duplicate }
      await this.insert(client, folder, record)
      const commit = await recordChange(client, this.scope, `add ${record.id} (${folder.key})`, options.author, [
        { op: 'add', folder: folder.key, memoryId: record.id, text: formatMemory(record) },
      ])
      return { deduplicated: false as const, stored: { record, folder, file: placeOfMemory(folder, record.id) }, commit }
    })
  }

  /** Insert a memory and its search document (a memory of that id in the folder is a CONFLICT). */
  async insert(client: PoolClient, folder: MemoryFolder, record: MemoryRecord): Promise<void> {
    await client.query('INSERT INTO mk_memories (scope, folder, id, record, dedup_key, restriction) VALUES ($1, $2, $3, $4, $5, $6)', [
      this.scope,
      folder.key,
      record.id,
      JSON.stringify(record),
      dedupKey(record.content),
      restrictionKey(record, folder),
    ])
    await upsertDocuments(client, this.scope, [memoryDocument(record, folder)])
  }

  async rewrite(folder: MemoryFolder, records: readonly MemoryRecord[], message: string, options: WriteOptions): Promise<string | undefined> {
    if (records.length === 0) return undefined
    return this.place.run((client) => this.rewriteIn(client, folder, records, message, options))
  }

  /** Replace memories of a folder; a memory's tier goes to the tier table as in the files store, not to its record. */
  async rewriteIn(client: PoolClient, folder: MemoryFolder, records: readonly MemoryRecord[], message: string, options: WriteOptions): Promise<string> {
    await this.place.lockFolder(client, folder.key)
    const tiered = await client.query<{ id: string }>('SELECT id FROM mk_tiers WHERE scope = $1 AND folder = $2 AND id = ANY($3)', [
      this.scope,
      folder.key,
      records.map((record) => record.id),
    ])
    const inTable = new Set(tiered.rows.map((row) => row.id))
    // One statement per batch of memories (an import of 100,000 was as many round trips); the last of two with one id wins.
    const unique = [...new Map(records.map((record) => [record.id, record])).values()]
    for (let start = 0; start < unique.length; start += 500) {
      const batch = unique.slice(start, start + 500)
      await client.query(
        `INSERT INTO mk_memories (scope, folder, id, record, dedup_key, restriction)
         SELECT $1, $2, u.id, u.record::jsonb, u.dedup_key, u.restriction FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS u(id, record, dedup_key, restriction)
         ON CONFLICT (tenant_id, scope, folder, id) DO UPDATE SET record = excluded.record, dedup_key = excluded.dedup_key, restriction = excluded.restriction`,
        [
          this.scope,
          folder.key,
          batch.map((record) => record.id),
          batch.map((record) => JSON.stringify(record)),
          batch.map((record) => dedupKey(record.content)),
          batch.map((record) => restrictionKey(record, folder)),
        ],
      )
    }
    for (const record of unique)
      if (inTable.has(record.id) || (record.tier !== undefined && record.tier !== 'hot')) await this.setTier(client, folder, record.id, record.tier ?? 'hot')
    await upsertDocuments(
      client,
      this.scope,
      records.map((record) => memoryDocument(record, folder)),
    )
    return recordChange(
      client,
      this.scope,
      message,
      options.author,
      records.map((record) => ({ op: 'rewrite', folder: folder.key, memoryId: record.id, text: formatMemory(record) })),
    )
  }

  private async setTier(client: PoolClient, folder: MemoryFolder, id: string, tier: MemoryTier): Promise<void> {
    await client.query(
      'INSERT INTO mk_tiers (scope, folder, id, tier) VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_id, scope, folder, id) DO UPDATE SET tier = excluded.tier',
      [this.scope, folder.key, id, tier],
    )
  }

  async retier(folder: MemoryFolder, moves: readonly { id: string; tier: MemoryTier }[], message: string, options: WriteOptions): Promise<string | undefined> {
    if (moves.length === 0) return undefined
    return this.place.run(async (client) => {
      await this.place.lockFolder(client, folder.key)
      for (const move of moves) await this.setTier(client, folder, move.id, move.tier)
      await setStatuses(
        client,
        this.scope,
        moves.map((move) => ({ id: move.id, status: move.tier })),
      )
      return recordChange(
        client,
        this.scope,
        message,
        options.author,
        moves.map((move) => ({ op: 'retier', folder: folder.key, memoryId: move.id, text: move.tier })),
      )
    })
  }

  async delete(stored: StoredMemory, options: WriteOptions): Promise<string> {
    const { folder, record } = stored
    return this.place.run(async (client) => {
      await this.place.lockFolder(client, folder.key)
      const [current] = await this.readIn(client, folder, [record.id])
      if (current === undefined || !('record' in current)) throw notFound(record.id)
      await client.query('DELETE FROM mk_memories WHERE scope = $1 AND folder = $2 AND id = $3', [this.scope, folder.key, record.id])
      await client.query('DELETE FROM mk_tiers WHERE scope = $1 AND folder = $2 AND id = $3', [this.scope, folder.key, record.id])
      await removeDocuments(client, this.scope, [record.id])
      return recordChange(client, this.scope, `delete ${record.id}\n\nfolder: ${folder.key}\n`, options.author, [
        { op: 'delete', folder: folder.key, memoryId: record.id, text: formatMemory(current.record) },
      ])
    })
  }

  async restore(identity: MemoryIdentity, id: string, options: WriteOptions): Promise<StoredMemory & { commit: string | undefined }> {
    if (!isMemoryId(id)) throw new MkError('INVALID_INPUT', `"${id}" is not a memory id`, { details: { field: 'memoryId' } })
    const deletion = await this.findDeletion(id)
    if (deletion === undefined) {
      throw new MkError('NOT_FOUND', `no deletion of ${id} is recorded in this store's history`, {
        details: { memoryId: id, hint: 'only memories deleted with mk memory delete can be restored' },
      })
    }
    const key = /^folder: (.+)$/m.exec(deletion.message)?.[1]
    const folder = visibleFolders(this.place.workspace, identity).find((candidate) => candidate.key === key)
    if (folder === undefined) {
      throw new MkError('INVALID_INPUT', `${id} was deleted from ${key ?? 'an unknown folder'}, which is not visible here`, {
        details: { hint: 'pass the --agent or --session id it belonged to' },
      })
    }
    const record = parseMemory(deletion.text, folder.private ? 'private' : 'shared')
    return this.place.run(async (client) => {
      await this.place.lockFolder(client, folder.key)
      const exists = await client.query('SELECT 1 FROM mk_memories WHERE scope = $1 AND folder = $2 AND id = $3', [this.scope, folder.key, id])
      if ((exists.rowCount ?? 0) > 0) throw new MkError('CONFLICT', `memory ${id} exists already; nothing to restore`, { details: { memoryId: id } })
      await this.insert(client, folder, record)
      const commit = await recordChange(client, this.scope, `restore ${id} (${folder.key})`, options.author, [
        { op: 'restore', folder: folder.key, memoryId: id, text: deletion.text },
      ])
      return { record, folder, file: placeOfMemory(folder, id), commit }
    })
  }

  async findDeletion(id: string): Promise<DeletedVersion | undefined> {
    return this.place.run(async (client) => {
      const rows = await client.query<{ text: string; message: string }>(
        "SELECT text, message FROM mk_history WHERE scope = $1 AND memory_id = $2 AND op = 'delete' ORDER BY seq DESC LIMIT 1",
        [this.scope, id],
      )
      return rows.rows[0]
    })
  }

  /** The memories of the shared layers that cannot be served (private with no owner); rows are checked on write, so nothing else can be malformed. */
  async lint(): Promise<{ problems: KnowledgeProblem[]; read: number }> {
    const shared = visibleFolders(this.place.workspace, { agentId: undefined, sessionId: undefined }).filter((folder) => !folder.private)
    const problems: KnowledgeProblem[] = []
    let read = 0
    await this.place.run(async (client) => {
      for (const folder of shared) {
        const ids = (await client.query<{ id: string }>('SELECT id FROM mk_memories WHERE scope = $1 AND folder = $2', [this.scope, folder.key])).rows
        for (const found of await this.readIn(
          client,
          folder,
          ids.map((row) => row.id),
        )) {
          read++
          if (!('record' in found)) problems.push({ file: found.file, line: 1, code: found.code, message: found.problem, severity: 'error' })
        }
      }
    })
    return { problems, read }
  }

  placeOf(stored: StoredMemory): Promise<string> {
    return Promise.resolve(placeOfMemory(stored.folder, stored.record.id))
  }
}
