import { open } from 'node:fs/promises'
import { MkError } from '../errors.js'

/**
 * The most bytes of one file mk reads as knowledge or as agent rules (AGENTS.md,
 * CLAUDE.md, .cursor/rules...), and of a rules file's text given inline: 256 KiB.
 * Ingesting costs about 9 s and 650 MB per MiB (the markdown parser), so a 28 MB
 * file took gigabytes; real ADRs and agent rules files stay under 100 KB, and an
 * agent could not read a file near the cap in its context anyway.
 */
export const maxRulesFileBytes = 256 * 1024

const chunkBytes = 64 * 1024

/** A file over the cap: names it (as the caller shows it) and the cap, and says how to get under it. */
export class FileTooLargeError extends MkError {
  /** What is wrong, without the path: for lists that already name the file. */
  readonly reason: string

  constructor(shownPath: string, cap: number) {
    const reason = `over ${describeBytes(cap)}, the most mk reads of a knowledge or rules file; split it into smaller files`
    super('INVALID_INPUT', `${shownPath} is ${reason}`, {
      details: { path: shownPath, limitBytes: cap, hint: 'split it into smaller files, each under the limit' },
    })
    this.reason = reason
  }
}

function describeBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}

/**
 * A knowledge or rules file's text, read only while it stays within the cap: a
 * file over it (also one that grows while it is read) fails with an MkError
 * naming `shownPath`, never loading more than the cap and a chunk.
 */
export async function readRulesText(absolutePath: string, shownPath: string, cap: number = maxRulesFileBytes): Promise<string> {
  const handle = await open(absolutePath, 'r')
  try {
    const { size } = await handle.stat()
    if (size > cap) throw new FileTooLargeError(shownPath, cap)
    const chunks: Buffer[] = []
    let total = 0
    // The first read asks for one byte more than the stated size, so a file that did not grow is read in one call.
    for (let want = size + 1; ; want = Math.min(chunkBytes, cap + 1 - total)) {
      const chunk = Buffer.allocUnsafe(want)
      const { bytesRead } = await handle.read(chunk, 0, want, null)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      total += bytesRead
      if (total > cap) throw new FileTooLargeError(shownPath, cap)
    }
    return Buffer.concat(chunks, total).toString('utf8')
  } finally {
    await handle.close()
  }
}
