/**
 * Load what a thread's first memory write needs, before the server says it is ready: the
 * modules the write path imports on first use and the secret rules the redaction compiles. A
 * thread's first memory_add paid both, 150 to 350 ms under load, while later ones took 40 to 80.
 * Nothing is written.
 */
export async function warmWritePath(): Promise<void> {
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
}
