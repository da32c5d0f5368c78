import { crc32 } from 'node:zlib'

const frameHeaderBytes = 8

/** A payload as one frame of a cache file: length, crc32, payload. */
export function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(frameHeaderBytes)
  header.writeUInt32BE(payload.length, 0)
  header.writeUInt32BE(crc32(payload), 4)
  return Buffer.concat([header, payload])
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
