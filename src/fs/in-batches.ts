/**
 * Run work over items a batch at a time, in order: enough files in flight to keep the disk and
 * both cores busy, never so many that a process runs out of file handles (EMFILE).
 */
export async function inBatches<Item, Result>(items: readonly Item[], size: number, work: (item: Item) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = []
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(work))))
  return results
}
