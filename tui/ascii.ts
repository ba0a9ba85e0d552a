/**
 * The ASCII fallback (docs/tui.md "Every size"): where the locale is not UTF-8 the terminal would
 * show the TUI's symbols as mojibake, so every character of the frame outside ASCII is written as
 * one ASCII character. One for one, so Ink's layout (measured before the write) still holds.
 */
const ASCII: Readonly<Record<string, string>> = {
  "▸": ">",
  "◂": "<",
  "▏": "|",
  Σ: "S",
  "·": "-",
  "…": "~",
  "≈": "~",
  "≤": "<",
  "≥": ">",
  "—": "-",
  "–": "-",
  "⚠": "!",
  "↑": "^",
  "↓": "v",
  "⏎": "<",
  "▁": "_",
  "▂": "_",
  "▃": "-",
  "▄": "-",
  "▅": "=",
  "▆": "=",
  "▇": "#",
  "█": "#",
  "│": "|",
  "─": "-",
};

/** `text` with every character outside ASCII replaced by one ASCII character ("?" when unknown). */
export function toAscii(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range \x00-\x7f
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  let out = "";
  for (const char of text) out += char.charCodeAt(0) < 0x80 ? char : (ASCII[char] ?? "?");
  return out;
}

/**
 * Whether the locale is UTF-8: LC_ALL, else LC_CTYPE, else LANG, as the C library reads them.
 * No locale at all is the C locale: ASCII.
 */
export function localeIsUtf8(env: NodeJS.ProcessEnv = process.env): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || "";
  return /utf-?8/i.test(locale);
}

/** A stdout whose writes go through toAscii; everything else (columns, rows, events) is stdout's. */
export function asciiStdout(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  return new Proxy(stdout, {
    get(target, prop, receiver) {
      if (prop === "write")
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => boolean).call(
            target,
            typeof chunk === "string" ? toAscii(chunk) : chunk,
            ...rest,
          );
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
