import { MkError } from '../errors.js'

/** The hub mk downloads from when nobody names another. */
export const defaultHubUrl = 'https://huggingface.co'

/** The most bytes one model pull downloads (all its files together) unless MK_MODEL_MAX_BYTES says otherwise: the largest common sentence-transformers fit. */
export const defaultMaxModelBytes = 4_000_000_000

/** What the operator allows model_pull to do: which hubs it may ask, and how much it may download. */
export interface HubPolicy {
  /** MK_MODEL_HUB_URLS; undefined allows any hub (the CLI without the variable). */
  allowedHubs: string[] | undefined
  maxBytes: number
}

const normalised = (url: string): string => url.replace(/\/+$/, '')

function parseHubUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new MkError('INVALID_INPUT', `MK_MODEL_HUB_URLS: ${JSON.stringify(text)} is not an http(s) URL`, {
      details: { field: 'MK_MODEL_HUB_URLS', hint: 'list hub URLs separated by commas, e.g. https://huggingface.co,https://hf-mirror.example.com' },
    })
  }
  return normalised(url.toString())
}

/**
 * The operator's rules for model_pull, from the environment of the process that runs it:
 * MK_MODEL_HUB_URLS (comma- or space-separated) lists the only hubs it may download from;
 * where a tenant calls (`served`) and the variable is unset, only the default hub is allowed.
 * MK_MODEL_MAX_BYTES caps one pull.
 */
export function hubPolicyFrom(env: NodeJS.ProcessEnv, served: boolean): HubPolicy {
  const listed = (env.MK_MODEL_HUB_URLS ?? '').split(/[\s,]+/).filter((entry) => entry !== '')
  const allowedHubs = listed.length > 0 ? listed.map(parseHubUrl) : served ? [defaultHubUrl] : undefined
  const capText = env.MK_MODEL_MAX_BYTES?.trim() ?? ''
  const maxBytes = capText === '' ? defaultMaxModelBytes : Number(capText)
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new MkError('INVALID_INPUT', `MK_MODEL_MAX_BYTES: ${JSON.stringify(capText)} is not a whole number of bytes`, {
      details: { field: 'MK_MODEL_MAX_BYTES', hint: `e.g. MK_MODEL_MAX_BYTES=2000000000 (2 GB); unset, a pull may download ${defaultMaxModelBytes} bytes` },
    })
  }
  return { allowedHubs, maxBytes }
}

/**
 * The hub one pull downloads from: the one the caller names, else the configured one; with an
 * allow-list, a named hub must be on it, and a configured one that is not gives way to the first listed.
 */
export function chooseHubUrl(policy: HubPolicy, requested: string | undefined, configured: string): string {
  const allowed = policy.allowedHubs
  if (allowed === undefined) return normalised(requested ?? configured)
  if (requested === undefined) return allowed.includes(normalised(configured)) ? normalised(configured) : (allowed[0] ?? defaultHubUrl)
  if (allowed.includes(normalised(requested))) return normalised(requested)
  throw new MkError('FORBIDDEN', `model_pull may not download from ${requested}: it is not one of the hubs the operator allows (MK_MODEL_HUB_URLS)`, {
    details: {
      field: 'hubUrl',
      reason: 'hub_not_allowed',
      allowed,
      hint: `omit hubUrl to use ${allowed[0] ?? defaultHubUrl}, or ask the operator to add the hub to MK_MODEL_HUB_URLS`,
    },
  })
}
