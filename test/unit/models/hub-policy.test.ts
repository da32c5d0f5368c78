import { describe, expect, it } from 'vitest'
import { chooseHubUrl, defaultHubUrl, defaultMaxModelBytes, hubPolicyFrom } from '../../../src/models/hub-policy.js'

describe('which hub model_pull may download from', () => {
  it('in the CLI without MK_MODEL_HUB_URLS: the hub asked for, else the configured one', () => {
    const policy = hubPolicyFrom({}, false)
    expect(policy).toEqual({ allowedHubs: undefined, maxBytes: defaultMaxModelBytes })
    expect(chooseHubUrl(policy, 'http://127.0.0.1:8080/', defaultHubUrl)).toBe('http://127.0.0.1:8080')
    expect(chooseHubUrl(policy, undefined, 'https://mirror.example.com')).toBe('https://mirror.example.com')
  })

  it('in mk serve without MK_MODEL_HUB_URLS: only the default hub, whatever the request or the tenant config names', () => {
    const policy = hubPolicyFrom({}, true)
    expect(policy.allowedHubs).toEqual([defaultHubUrl])
    expect(() => chooseHubUrl(policy, 'http://127.0.0.1:8080', defaultHubUrl)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', details: expect.objectContaining({ reason: 'hub_not_allowed' }) }),
    )
    expect(chooseHubUrl(policy, undefined, 'http://169.254.169.254')).toBe(defaultHubUrl)
    expect(chooseHubUrl(policy, `${defaultHubUrl}/`, defaultHubUrl)).toBe(defaultHubUrl)
  })

  it('with MK_MODEL_HUB_URLS: a hub on the list, the first by default, anywhere mk runs', () => {
    for (const served of [false, true]) {
      const policy = hubPolicyFrom({ MK_MODEL_HUB_URLS: 'https://mirror.example.com/hf/, https://huggingface.co' }, served)
      expect(policy.allowedHubs).toEqual(['https://mirror.example.com/hf', 'https://huggingface.co'])
      expect(chooseHubUrl(policy, 'https://huggingface.co', defaultHubUrl)).toBe('https://huggingface.co')
      expect(chooseHubUrl(policy, undefined, 'https://elsewhere.example.com')).toBe('https://mirror.example.com/hf')
      expect(() => chooseHubUrl(policy, 'https://elsewhere.example.com', defaultHubUrl)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }))
    }
  })

  it('reads the download cap and refuses settings that are not what they claim', () => {
    expect(hubPolicyFrom({ MK_MODEL_MAX_BYTES: '2000000000' }, true).maxBytes).toBe(2_000_000_000)
    expect(() => hubPolicyFrom({ MK_MODEL_MAX_BYTES: '2GB' }, true)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(() => hubPolicyFrom({ MK_MODEL_MAX_BYTES: '0' }, true)).toThrow(/MK_MODEL_MAX_BYTES/)
    expect(() => hubPolicyFrom({ MK_MODEL_HUB_URLS: 'file:///etc' }, true)).toThrow(/MK_MODEL_HUB_URLS/)
  })
})
