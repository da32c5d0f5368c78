export interface WarmWrites {
  /** The workspace embeds with the bundled model: load it now (a cached warm-up question does not). */
  bundledModel: boolean
}

/**
 * Load what a thread's first memory write needs, before the server says it is ready: the
 * modules the write path imports on first use, the secret rules the redaction compiles and, when
 * asked, the embedding model. A thread's first memory_add paid the first two, 150 to 350 ms under
 * load, while later ones took 40 to 80. Nothing is written.
 */
export async function warmWritePath(options: WarmWrites): Promise<void> {
  const [{ redactSecrets }] = await Promise.all([
    import('../../memory/redact.js'),
    import('../../recall/add-memory.js'),
    import('../../memory/store.js'),
    import('../../memory/ids.js'),
    import('../../memory/visibility.js'),
    import('../../memory/neighbours.js'),
    import('../../sync/stale.js'),
  ])
  await redactSecrets('warming up the secret rules of a memory write')
  if (options.bundledModel) await (await import('../../search/embedding/bundled.js')).holdBundledModel()
}
