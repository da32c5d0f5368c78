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

/** In a connection string only the password is secret: keep the host and database readable. */
function passwordOf(uri: string): string | undefined {
  return /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:([^@\s]+)@/i.exec(uri)?.[1]
}

/**
 * The secret a finding is about. Rules put it in their message data; their reported range is
 * not always where the secret is (the AWS rule points at the start of `aws_secret_access_key=`).
 */
function secretOf(text: string, message: { range: readonly [number, number]; data?: unknown }): string {
  const data = (message.data ?? {}) as Record<string, unknown>
  const values = Object.values(data).filter((value): value is string => typeof value === 'string' && value.length >= 8 && text.includes(value))
  return values.sort((a, b) => b.length - a.length)[0] ?? text.slice(message.range[0], message.range[1])
}

/**
 * Replace secrets with `[REDACTED:kind]` before anything is written, using secretlint's
 * maintained recommended rule set (cloud keys, tokens, private keys, connection-string passwords...).
 * Every occurrence of a found secret is replaced, not only the one the rule pointed at.
 */
export async function redactSecrets(text: string): Promise<RedactedText> {
  const [{ lintSource }, { creator }] = await Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')])
  const result = await lintSource({
    source: { filePath: 'memory.md', content: text, contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] }, maskSecrets: false },
  })
  const secrets = new Map<string, string>()
  for (const message of result.messages) {
    const kind = kindOf(message.ruleId)
    const found = secretOf(text, message)
    const secret = kind === 'connection-string-password' ? (passwordOf(found) ?? found) : found
    if (secret !== '' && !secrets.has(secret)) secrets.set(secret, kind)
  }
  let redacted = text
  const counts = new Map<string, number>()
  // Longest first, so a secret that contains another is replaced whole.
  for (const [secret, kind] of [...secrets].sort((a, b) => b[0].length - a[0].length)) {
    const parts = redacted.split(secret)
    if (parts.length === 1) continue
    redacted = parts.join(`[REDACTED:${kind}]`)
    counts.set(kind, (counts.get(kind) ?? 0) + parts.length - 1)
  }
  const redactions = [...counts].map(([kind, count]) => ({ kind, count })).sort((a, b) => a.kind.localeCompare(b.kind))
  return { text: redacted, redactions }
}
