import { describe, expect, it } from 'vitest'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'

// issue 11.12: read-only mode fails closed.
describe('read-only mode from the environment', () => {
  it.each(['1', ' 1', '1 ', 'true', 'TRUE', 'yes', 'on', 'y', 'enabled', 'please', '2'])('MK_READ_ONLY=%j is read-only', (value) => {
    expect(runtimeEnvFrom({ MK_READ_ONLY: value }).readOnly).toBe(true)
  })

  it.each(['0', 'false', 'False', ' no ', 'OFF', ''])('MK_READ_ONLY=%j allows writes', (value) => {
    expect(runtimeEnvFrom({ MK_READ_ONLY: value }).readOnly).toBe(false)
  })

  it('allows writes when neither variable is set', () => {
    expect(runtimeEnvFrom({}).readOnly).toBe(false)
  })

  it('honours READ_ONLY as well, and either one asking for read-only wins', () => {
    expect(runtimeEnvFrom({ READ_ONLY: '1' }).readOnly).toBe(true)
    expect(runtimeEnvFrom({ READ_ONLY: ' yes' }).readOnly).toBe(true)
    expect(runtimeEnvFrom({ READ_ONLY: 'off' }).readOnly).toBe(false)
    expect(runtimeEnvFrom({ MK_READ_ONLY: '0', READ_ONLY: '1' }).readOnly).toBe(true)
    expect(runtimeEnvFrom({ MK_READ_ONLY: '1', READ_ONLY: '0' }).readOnly).toBe(true)
  })
})
