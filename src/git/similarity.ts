/** Git's scale of similarity (diffcore.h MAX_SCORE) and the least score it takes as a rename by default (50 %). */
const maxScore = 60000
export const minimumRenameScore = 30000

const hashBase = 107927

/** Bytes of the content per chunk hash: chunks end at a newline or after 64 bytes (git's diffcore-delta.c). */
function chunkCounts(content: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>()
  const text = !content.subarray(0, 8000).includes(0)
  let [accum1, accum2, length] = [0, 0, 0]
  const add = (): void => {
    const hash = ((accum1 + Math.imul(accum2, 0x61)) >>> 0) % hashBase
    counts.set(hash, (counts.get(hash) ?? 0) + length)
    ;[accum1, accum2, length] = [0, 0, 0]
  }
  for (let index = 0; index < content.length; index++) {
    const byte = content[index] as number
    // A CR before a newline in text does not count, so CRLF and LF copies of a file are alike.
    if (text && byte === 0x0d && content[index + 1] === 0x0a) continue
    const old1 = accum1
    accum1 = (((accum1 << 7) ^ (accum2 >>> 25)) + byte) >>> 0
    accum2 = ((accum2 << 7) ^ (old1 >>> 25)) >>> 0
    length++
    if (length === 64 || byte === 0x0a) add()
  }
  if (length > 0) add()
  return counts
}

/**
 * How much of `after` is copied from `before`, on git's scale (0 to 60000), as git's rename detection scores a
 * pair of regular files (diffcore-rename.c estimate_similarity): the bytes of chunks the two share over the
 * larger size. 0 when the sizes alone rule a rename out.
 */
export function similarityScore(before: Uint8Array, after: Uint8Array): number {
  const largest = Math.max(before.length, after.length)
  const delta = largest - Math.min(before.length, after.length)
  if (after.length === 0 || largest * (maxScore - minimumRenameScore) < delta * maxScore) return 0
  const afterCounts = chunkCounts(after)
  let copied = 0
  for (const [hash, count] of chunkCounts(before)) copied += Math.min(count, afterCounts.get(hash) ?? 0)
  return Math.floor((copied * maxScore) / largest)
}
