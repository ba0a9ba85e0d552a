/**
 * How long a long bench runs, or undefined when nobody asked for it: such a bench (the memory
 * soak, the TUI's resident memory) runs for many minutes, so `npm run bench` skips it unless it is
 * named on the command line (then `defaultMinutes`) or its variable gives the minutes.
 */
export function askedMinutes(
  variable: string,
  name: string,
  defaultMinutes: number,
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv.slice(2),
): number | undefined {
  const raw = env[variable];
  if (raw !== undefined && raw !== "") {
    const minutes = Number(raw);
    if (!Number.isFinite(minutes) || minutes <= 0)
      throw new Error(`${variable} must be a positive number of minutes, not "${raw}"`);
    return minutes;
  }
  return argv.includes(name) ? defaultMinutes : undefined;
}
