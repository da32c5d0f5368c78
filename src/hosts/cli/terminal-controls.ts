// Terminal control sequences in data (memory content, knowledge titles from a synced
// remote) could retitle the window, move the cursor, hide or reorder text. The terminator
// of OSC and DCS-like strings is required, so a lone introducer never swallows the text
// after it; their payload stops at a line break, at mk's own style markers (style.ts) and
// at the next introducer, so text full of introducers costs linear time, not quadratic.
const escapeSequence = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]', // CSI, 7- and 8-bit
    '(?:\\u001b[\\]PX^_]|[\\u009d\\u0090\\u0098\\u009e\\u009f])[^\\u0007\\u001b\\u0090\\u0098\\u009c-\\u009f\\n\\ue000]*(?:\\u0007|\\u001b\\\\|\\u009c)', // OSC, DCS, SOS, PM, APC
    '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]', // any other ESC sequence (ESC c, ESC 7, ESC ( B)
  ].join('|'),
  'g',
)

/** C0 controls but tab and line feed, DEL, C1 controls, and the bidi embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharacter = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** Text as a terminal may show it: every control sequence and control character removed, line breaks and tabs kept. */
export function stripTerminalControls(text: string): string {
  return text.replace(escapeSequence, '').replace(controlCharacter, '')
}

/**
 * JSON text with the control characters JSON.stringify leaves raw (DEL, C1, bidi
 * controls) written as \u escapes: the same JSON value, safe to print. They can
 * only occur inside strings, where an escape means the same character.
 */
export function escapeTerminalControlsInJson(json: string): string {
  return json.replace(controlCharacter, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
