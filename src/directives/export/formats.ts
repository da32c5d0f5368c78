/** The rules-file formats `mk rules export` writes. */
export const exportFormats = ['agents-md', 'claude', 'cursor', 'copilot'] as const
export type ExportFormat = (typeof exportFormats)[number]
