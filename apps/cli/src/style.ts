/** ANSI styling that degrades to plain text when colour is off (not a TTY, NO_COLOR, --json). */
export interface Style {
  red: (s: string) => string;
  yellow: (s: string) => string;
  green: (s: string) => string;
  dim: (s: string) => string;
  bold: (s: string) => string;
  underline: (s: string) => string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const plain = (s: string) => s;

export function makeStyle(color: boolean): Style {
  if (!color) return { red: plain, yellow: plain, green: plain, dim: plain, bold: plain, underline: plain };
  return {
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    underline: wrap(4, 24),
  };
}
