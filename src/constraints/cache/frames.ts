import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { crc32 } from 'node:zlib'
import { writeFileAtomicSync } from '../../fs/atomic-write.js'

const frameHeaderBytes = 8

/**
 * Payloads as the frames of a cache file, each `length, crc32, payload`. A
 * payload may be given in pieces (a large one assembled from ranges of an
 * older file): it is copied once, into the result.
 */
export function framed(payloads: readonly (Buffer | readonly Buffer[])[]): Buffer {
  const pieced = payloads.map((payload) => (Buffer.isBuffer(payload) ? [payload] : payload))
  const lengths = pieced.map((pieces) => pieces.reduce((sum, piece) => sum + piece.length, 0))
  const bytes = Buffer.allocUnsafe(lengths.reduce((sum, length) => sum + frameHeaderBytes + length, 0))
  let offset = 0
  pieced.forEach((pieces, index) => {
    let checksum = 0
    for (const piece of pieces) checksum = crc32(piece, checksum)
    offset = bytes.writeUInt32BE(lengths[index] as number, offset)
    offset = bytes.writeUInt32BE(checksum, offset)
    for (const piece of pieces) offset += piece.copy(bytes, offset)
  })
  return bytes
}

/** The payloads of a file of frames, up to the first torn or damaged one (a crash mid-append, a truncation). */
export function readFrames(bytes: Buffer): Buffer[] {
  const payloads: Buffer[] = []
  for (let offset = 0; offset + frameHeaderBytes <= bytes.length;) {
    const length = bytes.readUInt32BE(offset)
    const end = offset + frameHeaderBytes + length
    if (end > bytes.length) break
    const payload = bytes.subarray(offset + frameHeaderBytes, end)
    if (crc32(payload) !== bytes.readUInt32BE(offset + 4)) break
    payloads.push(payload)
    offset = end
  }
  return payloads
}

/**
 * Replace a cache file with these payloads as frames (temp file and rename),
 * in a folder whose own `.gitignore` of `*` keeps the cache out of commits,
 * even in a workspace whose `.gitignore` lacks `.mk/`.
 */
export function writeFramedFile(file: string, payloads: readonly (Buffer | readonly Buffer[])[]): void {
  writeFileAtomicSync(file, framed(payloads))
  const ignoreFile = join(dirname(file), '.gitignore')
  if (!existsSync(ignoreFile)) writeFileAtomicSync(ignoreFile, '*\n')
}
