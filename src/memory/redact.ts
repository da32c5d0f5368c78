import { findContextSecrets } from './secret-rules/context.js'
import { findRuleSecrets } from './secret-rules/rules.js'

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

/** Every secret either rule set, or the words around it, find in the text, with its kind. */
async function findSecrets(text: string): Promise<Map<string, string>> {
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
  for (const { ruleId, secret } of [...findRuleSecrets(text), ...findContextSecrets(text)]) {
    if (!secrets.has(secret)) secrets.set(secret, ruleId)
  }
  return secrets
}

type Redactable = string | number | boolean | undefined | null | readonly Redactable[] | { readonly [key: string]: Redactable }

function stringsOf(value: Redactable, into: string[]): string[] {
  if (typeof value === 'string') into.push(value)
  else if (Array.isArray(value)) for (const item of value) stringsOf(item as Redactable, into)
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      into.push(key)
      // `password: Kx7#…` in metadata is a secret named by its key: searched as one line too.
      if (typeof item === 'string') into.push(`${key}: ${item}`)
      stringsOf(item, into)
    }
  }
  return into
}

function replaceIn<Value extends Redactable>(value: Value, replace: (text: string) => string): Value {
  if (typeof value === 'string') return replace(value) as Value
  if (Array.isArray(value)) return value.map((item: Redactable) => replaceIn(item, replace)) as unknown as Value
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [replace(key), replaceIn(item, replace)])) as Value
  }
  return value
}

export interface RedactedValue<Value> {
  value: Value
  redactions: Redaction[]
}

/**
 * Replace secrets with `[REDACTED:kind]` in every string of a value (content, tags, metadata keys
 * and values, refs, titles) before anything is written, using two maintained rule sets:
 * secretlint's recommended preset and gitleaks' default rules (see
 * knowledge/adr/adr-0009-secret-rules.md). The fields are searched together, so a secret found
 * in one field is replaced wherever it occurs, and every occurrence is replaced, not only the one
 * a rule pointed at.
 */
export async function redactFields<Value extends Redactable>(value: Value): Promise<RedactedValue<Value>> {
  const secrets = await findSecrets(stringsOf(value, []).join('\n\n'))
  const counts = new Map<string, number>()
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...secrets].sort((a, b) => b[0].length - a[0].length)
  const redacted = replaceIn(value, (text) => {
    let result = text
    for (const [secret, kind] of ordered) {
      const parts = result.split(secret)
      if (parts.length === 1) continue
      result = parts.join(`[REDACTED:${kind}]`)
      counts.set(kind, (counts.get(kind) ?? 0) + parts.length - 1)
    }
    return result
  })
  const redactions = [...counts].map(([kind, count]) => ({ kind, count })).sort((a, b) => a.kind.localeCompare(b.kind))
  return { value: redacted, redactions }
}

/** Redact one text: see redactFields. */
export async function redactSecrets(text: string): Promise<RedactedText> {
  const { value, redactions } = await redactFields(text)
  return { text: value, redactions }
}
