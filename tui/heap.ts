/**
 * V8's heap settings for the TUI process (docs/tui-memory.md "V8 flags of the TUI"). The TUI runs
 * for days and allocates a little per frame: by default V8 lets the young generation grow to two
 * 16 MB semi-spaces and the old one put on garbage before collecting it, about 40 MB of resident
 * memory that a trading screen never needs.
 *
 * `--optimize-for-size` is read by V8's garbage collector when it sizes the heap, so setting it
 * while the process runs (before Ink and React load) takes effect; heap size limits such as
 * `--max-semi-space-size` are read once, when the heap is set up, and would do nothing here. No
 * second process is started for it.
 */
export const TUI_V8_FLAGS: readonly string[] = ["--optimize-for-size"];

/** The flag's name without `--` or `--no-`, dashes and underscores alike (V8 takes both). */
function flagName(arg: string): string {
  return arg
    .replace(/^--(no-?)?/, "")
    .replace(/=.*$/, "")
    .replaceAll("_", "-");
}

/**
 * Sets TUI_V8_FLAGS in this process, except a flag node's command line already names (either way:
 * `node --no-optimize-for-size bin/spotdesk tui` keeps V8's default). Returns the flags it set.
 */
export function tuneHeapForTui(setFlags: (flags: string) => void, execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith("--")).map(flagName));
  const flags = TUI_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
  if (flags.length > 0) setFlags(flags.join(" "));
  return flags;
}
