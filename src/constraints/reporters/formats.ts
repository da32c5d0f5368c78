/** The names `--format` accepts; each has a reporter in ./index.ts. */
export const reportFormats = ['text', 'json', 'sarif', 'github'] as const
export type ReportFormat = (typeof reportFormats)[number]
