/** mk as a library (ADR 0016): `const mk = await openMk({ cwd }); await mk.memorySearch({ query })`. */
export { openMk } from './open.js'
export type { CallOptions, Mk, OpenMkOptions } from './api.js'
export { MkError, errorCodes, type ErrorCode, type ErrorObject } from '../../errors.js'
