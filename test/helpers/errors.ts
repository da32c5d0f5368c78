import { expect } from 'vitest'
import { MkError } from '../../src/errors.js'

/** The MkError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<MkError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(MkError)
  return error as MkError
}
