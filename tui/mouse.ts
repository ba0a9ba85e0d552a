import { EventEmitter } from "node:events";

/**
 * Mouse input (docs/tui.md "Mouse"): the terminal reports clicks and the wheel as SGR sequences
 * (`ESC [ < button ; column ; row M`) on stdin once asked to (MOUSE_ON). They are taken out of what
 * Ink reads, so they never reach the keys (a click would otherwise type "[<0;12;5M" into a field),
 * and told to the App as events.
 */
export const MOUSE_ON = "\u001b[?1000h\u001b[?1006h";
export const MOUSE_OFF = "\u001b[?1006l\u001b[?1000l";

export interface MouseEvent {
  kind: "click" | "wheel-up" | "wheel-down";
  /** 0-based cell of the screen */
  x: number;
  y: number;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's escape sequences
const SGR_MOUSE = /\u001b\[<(\d+);(\d+);(\d+)([Mm])/g;

/** The mouse events in `chunk` and the chunk without them. Only presses count; releases are dropped. */
export function splitMouse(chunk: string): { rest: string; events: MouseEvent[] } {
  if (!chunk.includes("\u001b[<")) return { rest: chunk, events: [] };
  const events: MouseEvent[] = [];
  const rest = chunk.replace(SGR_MOUSE, (_all, b: string, cx: string, cy: string, final: string) => {
    const button = Number(b);
    const x = Number(cx) - 1;
    const y = Number(cy) - 1;
    if (final === "M") {
      if (button === 64) events.push({ kind: "wheel-up", x, y });
      else if (button === 65) events.push({ kind: "wheel-down", x, y });
      else if (button === 0) events.push({ kind: "click", x, y });
    }
    return "";
  });
  return { rest, events };
}

/** Where the App listens for mouse events; the stdin wrapper tells them here. */
export const mouseEvents = new EventEmitter();

/**
 * `stdin` whose `read()` hands Ink everything but the mouse sequences, which go to `events`. A
 * chunk that was only mouse input is skipped, so Ink never sees an empty key.
 */
export function mouseStdin<T extends { read: (...a: never[]) => unknown }>(stdin: T, events = mouseEvents): T {
  return new Proxy(stdin, {
    get(target, prop, receiver) {
      if (prop === "read")
        return () => {
          for (;;) {
            const chunk = (target.read as () => unknown).call(target);
            if (typeof chunk !== "string") return chunk;
            const { rest, events: found } = splitMouse(chunk);
            for (const e of found) events.emit("mouse", e);
            if (rest !== "") return rest;
          }
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
