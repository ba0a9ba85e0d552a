import { useMemo } from "react";
import { blockie } from "../../../../lib/blockies.js";

/** docs/dashboard-rules.md#screens: a round avatar generated from the client name (8-cell grid, scale 4). */
export function Avatar({ name }: { name: string }) {
  const b = useMemo(() => blockie(name, 8, 4), [name]);
  const px = b.size * b.scale;
  return (
    <svg
      className="avatar"
      width={px}
      height={px}
      viewBox={`0 0 ${b.size} ${b.size}`}
      role="img"
      aria-label={`${name} avatar`}
      shapeRendering="crispEdges"
    >
      <rect width={b.size} height={b.size} fill={b.bgcolor} />
      {b.cells.map((v, i) =>
        v === 0 ? null : (
          <rect
            // biome-ignore lint/suspicious/noArrayIndexKey: cells of a fixed grid, positional and never reordered
            key={i}
            x={i % b.size}
            y={Math.floor(i / b.size)}
            width={1}
            height={1}
            fill={v === 1 ? b.color : b.spotcolor}
          />
        ),
      )}
    </svg>
  );
}
