/**
 * The TUI's resident memory (issue 21: under 100 MB after 15 minutes at 120x40;
 * docs/tui-memory.md "Resident memory"). Three processes side by side, each in its own tmux pane
 * of 120x40, for SPOTDESK_RSS_MINUTES (15 when the bench is named, `npm run bench -- tui-rss`):
 *
 * - the TUI as a trader starts it, `node bin/spotdesk tui` (what `npm start` runs);
 * - the same TUI with V8's own heap behaviour (SPOTDESK_TUI_V8_DEFAULTS=1: no flag set, no
 *   compacting collection, tui/heap.ts), the baseline of the ratio;
 * - an idle `node -e`, the floor: what any node process holds (mostly the binary's own pages).
 *
 * Both TUIs see the same paper market and the same keys (the selection walks up and down the book
 * every 3 s). VmRSS and RssAnon (the private, anonymous part) are read from /proc/<pid>/status
 * every 30 s, with the CPU time of each (/proc/<pid>/stat); the bench attaches no debugger, which
 * holds memory of its own. Reported: the RSS at the end, and the highest after the first minute,
 * beside the same figures of the baseline, and the CPU the TUI took against the baseline's.
 *
 * Fifteen minutes is long for `npm run bench`: it runs when named or when SPOTDESK_RSS_MINUTES=N
 * is set (N minutes; fractions allowed for a quick look).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { askedMinutes } from "./asked-minutes.js";
import type { BenchOutcome } from "./index.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const TARGET_MB = 100;
const SAMPLE_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  atMs: number;
  /** VmRSS, kB */
  rss: number;
  /** RssAnon, kB: the private memory, without the binary's and libraries' file pages */
  anon: number;
  /** user + system CPU time so far, clock ticks (/proc/<pid>/stat) */
  cpu: number;
}

/** Clock ticks a second, the unit of /proc/<pid>/stat's CPU times. */
function clockTicks(): number {
  const ticks = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
}

/** VmRSS and RssAnon of a process, with its CPU time so far, or undefined once it is gone. */
function readStatus(pid: number): { rss: number; anon: number; cpu: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
    const rss = kb("VmRSS");
    const anon = kb("RssAnon");
    // utime and stime are the 14th and 15th fields; the command name (2nd) may hold spaces
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpu = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(rss) && Number.isFinite(anon) && Number.isFinite(cpu) ? { rss, anon, cpu } : undefined;
  } catch {
    return undefined;
  }
}

interface Pane {
  name: string;
  session: string;
  pid: number;
  samples: Sample[];
  /** the screen must still show the book at the end: a TUI that died or never drew measures nothing */
  checkScreen: boolean;
  dataDir: string;
  stderr: string;
}

function startPane(name: string, tag: string, nodeArgs: string, checkScreen: boolean, env = ""): Pane | string {
  const dataDir = mkdtempSync(join(tmpdir(), `spotdesk-bench-rss-${tag}-`));
  const stderr = join(dataDir, "stderr.log");
  const session = `spotdesk-rss-${process.pid}-${tag}`;
  const command = `cd '${root}' && ${env} SPOTDESK_DATA_DIR='${dataDir}' exec '${process.execPath}' ${nodeArgs} 2>'${stderr}'`;
  const started = spawnSync("tmux", ["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command]);
  if (started.status !== 0) return `tmux did not start: ${started.stderr}`;
  const listed = spawnSync("tmux", ["list-panes", "-t", session, "-F", "#{pane_pid}"], { encoding: "utf8" });
  const pid = Number(listed.stdout.trim());
  if (!Number.isInteger(pid) || pid <= 0) return `no pane process for ${name}`;
  return { name, session, pid, samples: [], checkScreen, dataDir, stderr };
}

function screen(pane: Pane): string {
  return spawnSync("tmux", ["capture-pane", "-p", "-t", pane.session], { encoding: "utf8" }).stdout ?? "";
}

function stopPane(pane: Pane): void {
  spawnSync("tmux", ["send-keys", "-t", pane.session, "q"]);
  spawnSync("tmux", ["kill-session", "-t", pane.session]);
  rmSync(pane.dataDir, { recursive: true, force: true });
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

/** Highest RSS after the first minute (the start's peak is not what stays). */
function settledMax(samples: readonly Sample[]): Sample | undefined {
  const later = samples.filter((s) => s.atMs >= 60_000);
  const pool = later.length > 0 ? later : samples;
  return pool.reduce<Sample | undefined>((max, s) => (max === undefined || s.rss > max.rss ? s : max), undefined);
}

function trail(samples: readonly Sample[]): string {
  // at most about eight points: the start, the end and evenly between
  const step = Math.max(1, Math.ceil(samples.length / 8));
  const picked = samples.filter((_, i) => i % step === 0 || i === samples.length - 1);
  return picked.map((s) => `${(s.atMs / 60_000).toFixed(1)} min ${mb(s.rss)}`).join(", ");
}

export async function run(): Promise<BenchOutcome[]> {
  const minutes = askedMinutes("SPOTDESK_RSS_MINUTES", "tui-rss", 15);
  const names = {
    end: `tui-rss: TUI at 120x40, resident memory after the run`,
    max: `tui-rss: TUI at 120x40, highest resident memory after the first minute`,
  };
  const skip = (skipped: string): BenchOutcome[] => [
    { name: names.end, skipped },
    { name: names.max, skipped },
  ];
  if (minutes === undefined)
    return skip("runs when asked (15 minutes): `npm run bench -- tui-rss` or SPOTDESK_RSS_MINUTES=N");
  if (process.platform !== "linux") return skip("reads /proc/<pid>/status: Linux only");
  if (spawnSync("tmux", ["-V"]).status !== 0) return skip("tmux is not installed");

  const cli = join(root, "bin", "spotdesk");
  const specs: [string, string, string, boolean, string?][] = [
    ["node bin/spotdesk tui", "tui", `'${cli}' tui`, true],
    ["the TUI with V8's own heap behaviour", "default", `'${cli}' tui`, true, "SPOTDESK_TUI_V8_DEFAULTS=1"],
    ["idle node -e", "idle", `-e 'setInterval(() => {}, 1000)'`, false],
  ];
  const panes: Pane[] = [];
  try {
    for (const [name, tag, args, check, env] of specs) {
      const pane = startPane(name, tag, args, check, env);
      if (typeof pane === "string") return skip(pane);
      panes.push(pane);
    }
    const started = Date.now();
    const durationMs = minutes * 60_000;
    let tick = 0;
    let nextSample = started;
    for (;;) {
      const now = Date.now();
      if (now >= nextSample || now - started >= durationMs) {
        for (const pane of panes) {
          const status = readStatus(pane.pid);
          if (status) pane.samples.push({ atMs: now - started, ...status });
        }
        nextSample += SAMPLE_MS;
      }
      if (now - started >= durationMs) break;
      // the selection walks up and down the book every 3 s in both TUIs, as in bench/soak.bench.ts
      tick++;
      if (tick % 3 === 0)
        for (const pane of panes)
          if (pane.checkScreen) spawnSync("tmux", ["send-keys", "-t", pane.session, tick % 12 < 6 ? "Up" : "Down"]);
      await sleep(Math.min(1000, Math.max(0, started + durationMs - Date.now())));
    }
    for (const pane of panes) {
      if (!pane.checkScreen) continue;
      const shown = screen(pane);
      if (!/Order book BTC\/USDT\s+live/.test(shown)) {
        let err = "";
        try {
          err = readFileSync(pane.stderr, "utf8").slice(-300);
        } catch {}
        return skip(`${pane.name} does not show a live book at the end: ${shown.slice(0, 300)} ${err}`);
      }
    }
  } finally {
    for (const pane of panes) stopPane(pane);
  }

  const [tui, unflagged, idle] = panes as [Pane, Pane, Pane];
  const last = (pane: Pane) => pane.samples.at(-1);
  const tuiEnd = last(tui);
  const baseEnd = last(unflagged);
  const idleEnd = last(idle);
  const tuiMax = settledMax(tui.samples);
  const baseMax = settledMax(unflagged.samples);
  if (!tuiEnd || !baseEnd || !idleEnd || !tuiMax || !baseMax) return skip("a process ended before its first sample");
  // CPU from the first minute's end to the last sample: the start's loading is not what runs for days
  const ticks = clockTicks();
  const from = (pane: Pane) =>
    pane.samples.find((s) => s.atMs >= 60_000 && s !== pane.samples.at(-1)) ?? pane.samples[0];
  const cpuSeconds = (pane: Pane) => ((pane.samples.at(-1)?.cpu ?? 0) - (from(pane)?.cpu ?? 0)) / ticks;
  const cpuShare = (pane: Pane) => {
    const spanMs = (pane.samples.at(-1)?.atMs ?? 0) - (from(pane)?.atMs ?? 0);
    return spanMs > 0 ? `${((cpuSeconds(pane) * 100_000) / spanMs).toFixed(1)}% of a core` : "n/a";
  };
  const cpuRatio = cpuSeconds(unflagged) > 0 ? (cpuSeconds(tui) / cpuSeconds(unflagged)).toFixed(2) : "n/a";
  const common =
    `${minutes} min, ${tui.samples.length} samples; idle node ${mb(idleEnd.rss)} MB (private ${mb(idleEnd.anon)}); ` +
    `private memory (RssAnon) ${mb(tuiEnd.anon)} MB vs ${mb(baseEnd.anon)} MB with V8's own behaviour; ` +
    `CPU ${cpuSeconds(tui).toFixed(1)} s (${cpuShare(tui)}) vs ${cpuSeconds(unflagged).toFixed(1)} s ` +
    `(${cpuShare(unflagged)}) with V8's own behaviour: ${cpuRatio} times`;
  return [
    {
      name: names.end,
      unit: "MB",
      better: "lower",
      value: mb(tuiEnd.rss),
      baseline: { name: unflagged.name, value: mb(baseEnd.rss) },
      target: TARGET_MB,
      detail: `${common}; VmRSS ${trail(tui.samples)} (V8's own: ${trail(unflagged.samples)})`,
    },
    {
      name: names.max,
      unit: "MB",
      better: "lower",
      value: mb(tuiMax.rss),
      baseline: { name: unflagged.name, value: mb(baseMax.rss) },
      target: TARGET_MB,
      detail: `at ${(tuiMax.atMs / 60_000).toFixed(1)} min (V8's own: ${(baseMax.atMs / 60_000).toFixed(1)} min); idle node ${mb(idleEnd.rss)} MB`,
    },
  ];
}

// `SPOTDESK_RSS_MINUTES=2 npx tsx bench/tui-rss.bench.ts` runs it alone
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
