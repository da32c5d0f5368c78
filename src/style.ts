/** How a tool's display text is decorated; the CLI passes chalk on a TTY, everyone else plain text. */
export interface Style {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  yellow(text: string): string
  green(text: string): string
  cyan(text: string): string
}

const identity = (text: string): string => text

export const plainStyle: Style = { bold: identity, dim: identity, red: identity, yellow: identity, green: identity, cyan: identity }
