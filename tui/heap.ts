/**
 * V8's heap settings for the TUI process (docs/tui-memory.md "V8 flags of the TUI"). The TUI runs
 * for days and allocates a little per frame, and V8 grows the young generation to two 16 MB
 * semi-spaces once enough has survived its scavenges (loading Ink alone takes it to 16 MB): 30 MB
 * of resident memory that a trading screen does not need. A growth factor of 1 keeps it at the
 * size it has when the flag is set, before Ink and React load.
 *
 * V8 reads the growth factor each time it would grow the young generation, so setting it in the
 * running process works, and needs no second process. On node's command line it would do
 * nothing: V8 raises a factor under 2 to 2 when it sets the heap up. The same goes for the size
 * limits (`--max-semi-space-size`): they are read once, at that moment.
 */
export interface TuiV8Flag {
  /** what the TUI sets */
  flag: string;
  /** V8's own default, as `node --v8-options` prints it: how to run the TUI without the change */
  v8Default: string;
}

export const TUI_V8_FLAGS: readonly TuiV8Flag[] = [
  { flag: "--semi-space-growth-factor=1", v8Default: "--semi-space-growth-factor=2" },
];

/** The flag's name without `--` or `--no-`, dashes and underscores alike (V8 takes both). */
export function flagName(arg: string): string {
  return arg
    .replace(/^--(no-?)?/, "")
    .replace(/=.*$/, "")
    .replaceAll("_", "-");
}

/**
 * Sets TUI_V8_FLAGS in this process, except a flag node's command line already names
 * (`node --semi-space-growth-factor=2 bin/spotdesk tui` keeps V8's default). Returns the flags it set.
 */
export function tuneHeapForTui(setFlags: (flags: string) => void, execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith("--")).map(flagName));
  const flags = TUI_V8_FLAGS.map((f) => f.flag).filter((flag) => !given.has(flagName(flag)));
  if (flags.length > 0) setFlags(flags.join(" "));
  return flags;
}
