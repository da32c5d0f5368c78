export interface Redaction {
  kind: string
  count: number
}

export interface RedactedText {
  text: string
  redactions: Redaction[]
}

const ruleKinds: Record<string, string> = {
  privatekey: 'private-key',
  'database-connection-string': 'connection-string-password',
}

function kindOf(ruleId: string): string {
  const name = ruleId.replace(/^@secretlint\/secretlint-rule-/, '')
  return ruleKinds[name] ?? name
}

interface Finding {
  start: number
  end: number
  kind: string
}

/** In a connection string only the password is secret: keep the host and database readable. */
function narrowToPassword(text: string, finding: Finding): Finding {
  const uri = text.slice(finding.start, finding.end)
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:([^@\s]+)@/i.exec(uri)
  if (match?.[1] === undefined) return finding
  const start = finding.start + uri.indexOf(`:${match[1]}@`) + 1
  return { start, end: start + match[1].length, kind: finding.kind }
}

/**
 * Replace secrets with `[REDACTED:kind]` before anything is written, using secretlint's
 * maintained recommended rule set (cloud keys, tokens, private keys, connection-string passwords...).
 */
export async function redactSecrets(text: string): Promise<RedactedText> {
  const [{ lintSource }, { creator }] = await Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')])
  const result = await lintSource({
    source: { filePath: 'memory.md', content: text, contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] }, maskSecrets: false },
  })
  const findings = result.messages
    .map((message) => {
      const finding = { start: message.range[0], end: message.range[1], kind: kindOf(message.ruleId) }
      return finding.kind === 'connection-string-password' ? narrowToPassword(text, finding) : finding
    })
    .sort((a, b) => a.start - b.start || b.end - a.end)
  let redacted = ''
  let position = 0
  const counts = new Map<string, number>()
  for (const finding of findings) {
    if (finding.start < position) continue
    redacted += `${text.slice(position, finding.start)}[REDACTED:${finding.kind}]`
    position = finding.end
    counts.set(finding.kind, (counts.get(finding.kind) ?? 0) + 1)
  }
  redacted += text.slice(position)
  return { text: redacted, redactions: [...counts].map(([kind, count]) => ({ kind, count })) }
}
