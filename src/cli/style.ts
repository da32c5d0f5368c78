import { Chalk } from 'chalk'
import { plainStyle, type Style } from '../style.js'

/** Colour only for a person at a terminal, and never when NO_COLOR is set. */
export function terminalStyle(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== ''
  if (noColor || stream.isTTY !== true) return plainStyle
  const chalk = new Chalk({ level: 1 })
  return { bold: chalk.bold, dim: chalk.dim, red: chalk.red, yellow: chalk.yellow, green: chalk.green, cyan: chalk.cyan }
}
