import type { ErrorCode } from '../../errors.js'

/** What each error code means for a caller and what to do about it; the skill document prints this. */
export const errorGuide: Record<ErrorCode, { meaning: string; action: string }> = {
  INVALID_INPUT: {
    meaning: "The input does not match the tool's input schema, or a config file is malformed.",
    action: 'Read `details.problems` (field path, expected, received), fix those fields and call again. Do not retry unchanged.',
  },
  NOT_FOUND: {
    meaning: 'The item, memory or tool named does not exist.',
    action: 'List or search first (knowledge_list, memory_search) and use an id from the result.',
  },
  CONFLICT: {
    meaning: 'The change clashes with the current state (the item exists, was changed meanwhile, or a lock is held).',
    action: 'Read the current state again, then decide; retry only with an updated input.',
  },
  UNAUTHORIZED: {
    meaning: 'A remote source refused the credentials, or `mk serve` got no valid API key or JWT.',
    action: 'Tell the person; the token named in the source config (tokenEnv), or the X-Api-Key / Bearer token for the server, is missing or wrong.',
  },
  FORBIDDEN: {
    meaning:
      'The call is not allowed here: read-only mode, an elevated tool nobody approved, or (mk serve) another tenant or an identity field that contradicts the credential (`details.reason`).',
    action: 'Do not retry. Ask the person to run it themselves or to allow it (unset MK_READ_ONLY, approve, or pass --yes).',
  },
  TIMEOUT: {
    meaning: 'The tool did not finish within its timeout_ms, a remote did not answer in time, or the caller cancelled the call (`details.cancelled`).',
    action: 'Retry once with a narrower input; for a tool that is not idempotent, check the state first.',
  },
  RATE_LIMITED: {
    meaning: 'A remote service asked mk to slow down, or `mk serve` refused a call over the tenant quota (`details.reason`, Retry-After).',
    action: 'Wait (details.retry_after_s when given), then retry (retryable is true).',
  },
  PROVIDER_ERROR: {
    meaning: 'A dependency failed: the embedding model, a git remote, the file system.',
    action: 'Retry later; if it persists, report the message to the person.',
  },
  INTERNAL_ERROR: { meaning: 'A bug in mk.', action: 'Do not retry in a loop; report the message to the person.' },
  NO_TOOLS_ALLOWED: {
    meaning: 'tools_select with strict: the policy rules allow none of the candidate tools (`details.denied` names the rules).',
    action: 'Do not use the denied tools. Offer other candidates, or call again with strict: false to fall back to deny-only.',
  },
  UNAVAILABLE: {
    meaning: '`mk serve` is shutting down or not ready yet, and took no action.',
    action: 'Retry shortly (retryable is true), against the restarted server.',
  },
}
