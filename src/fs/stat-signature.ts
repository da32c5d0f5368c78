import type { BigIntStats } from 'node:fs'

/** A file changed this recently could change again within the same timestamp (git's racy-clean case): nanoseconds. */
export const racyWindowNs = 2_000_000_000n

/**
 * What changes whenever a file is written, as git's index keeps it: size, modification and
 * change time (the latter cannot be set back by tools that restore mtimes) and inode (an editor
 * that saves by rename). undefined for a file changed within the racy window before `nowNs`
 * (wall clock): its stat data may not tell a later edit apart, so it is read, not trusted.
 */
export function statSignature(stats: BigIntStats, nowNs: bigint): string | undefined {
  const settled = nowNs - racyWindowNs
  if (stats.mtimeNs > settled || stats.ctimeNs > settled) return undefined
  // Joined, not a template: a template gave a tree of string pieces per file (five objects more), kept while a check runs.
  return ['stat', stats.size, stats.mtimeNs, stats.ctimeNs, stats.ino].join(' ')
}

/** Now, in nanoseconds of the wall clock that stamps files. */
export function wallClockNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n
}
