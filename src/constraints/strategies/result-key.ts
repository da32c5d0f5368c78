import { sha256Hex } from '../../hash.js'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { readBytesIfExists } from '../../fs/read-if-exists.js'
import { statSignature, wallClockNs } from '../../fs/stat-signature.js'
import type { CheckPreparation } from '../pipeline/prepare.js'
import type { StoredResultHeader } from '../cache/stored-result.js'

/** Bumped when what is stored, or how it is judged, changes (3: an inline waiver covers one line). */
const format = 3
/** Above this many changed paths one whole evaluation (with the scan cache) beats evaluating the changes. */
export const changeLimit = 2000

/** What the baseline is this run: its content hash, read only when its stat signature is not the one the stored hash was taken at. */
function baselineIdentity(
  preparation: CheckPreparation,
  stored: StoredResultHeader | undefined,
): { hash: string; signature: string | undefined; bytes: Buffer | undefined } {
  if (!preparation.options.useBaseline) return { hash: 'unused', signature: undefined, bytes: undefined }
  const absolute = join(preparation.workspace.root, preparation.baselineFile)
  // The file read, not a symbolic link to it: a link's own stat data does not change when its target does.
  const stats = statSync(absolute, { bigint: true, throwIfNoEntry: false })
  if (stats === undefined) return { hash: 'none', signature: undefined, bytes: undefined }
  const signature = statSignature(stats, wallClockNs())
  if (signature !== undefined && stored !== undefined && signature === stored.baselineSignature)
    return { hash: stored.baselineHash, signature, bytes: undefined }
  const bytes = readBytesIfExists(absolute)
  return bytes === undefined ? { hash: 'none', signature: undefined, bytes } : { hash: sha256Hex(bytes), signature, bytes }
}

/**
 * Everything a file's contribution depends on besides its path and content:
 * mk's version, the rules and the items stating them, the check settings, the
 * waivers file's and the baseline's content, the day (waivers expire), the
 * selected items and which snapshot of the workspace is checked (the working
 * tree, or the index with the workspace's folder in the repository).
 */
function resultKey(preparation: CheckPreparation, snapshot: string, waiversHash: string, baselineHash: string): string {
  const { options, rules, workspace } = preparation
  return sha256Hex(
    JSON.stringify({
      format,
      version: options.scanCache?.version,
      // Not the constraint's line: worked out lazily (it parses the knowledge file), and only reporters print it.
      rules: rules.map(({ constraint: { id, operator, target, pattern, paths, exclude, severity, message, waivable }, item }) => [
        [id, operator, target, pattern, paths, exclude, severity, message, waivable],
        item.id,
        item.title,
        item.path,
      ]),
      known: [...preparation.knownConstraintIds].sort(),
      knowledgeFolders: preparation.knowledgeFolders,
      check: workspace.config.check,
      today: preparation.today,
      items: options.knowledgeItemIds,
      snapshot,
      waiversHash,
      baselineHash,
    }),
  )
}

/** The header a result of this run is stored under, and the waivers file's and the baseline's bytes where they had to be read. */
export function resultHeader(
  preparation: CheckPreparation,
  snapshot: string,
  stored: StoredResultHeader | undefined,
): { header: StoredResultHeader; waiversBytes: Buffer | undefined; baselineBytes: Buffer | undefined } {
  const waiversBytes = readBytesIfExists(join(preparation.workspace.root, preparation.waiversFile))
  const baseline = baselineIdentity(preparation, stored)
  return {
    header: {
      key: resultKey(preparation, snapshot, waiversBytes === undefined ? 'none' : sha256Hex(waiversBytes), baseline.hash),
      baselineSignature: baseline.signature,
      baselineHash: baseline.hash,
    },
    waiversBytes,
    baselineBytes: baseline.bytes,
  }
}
