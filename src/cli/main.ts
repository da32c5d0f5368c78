/**
 * The process entry (bin/run.js) loads oclif through this module so that the
 * bundle holds oclif beside the commands: one parse of one chunk instead of a
 * hundred CommonJS files resolved and read one by one.
 */
export { execute } from '@oclif/core/execute'
