/**
 * Pins of lib/blockies.ts (docs/dashboard-rules.md#screens "a generated round avatar derived from the client name";
 * docs/mutation.md). A client's avatar must not change between versions: the vectors below were
 * computed with the original blockies algorithm (ethereum-blockies: xorshift128 seeded from the
 * text, three HSL colours, the left half mirrored), written out apart from lib/blockies.ts.
 */
import { describe, expect, it } from "vitest";
import { blockie } from "../../lib/blockies.js";

describe("blockies avatar, fixed vectors", () => {
  it("draws 'Acme' as the original algorithm does (8 cells, scale 4)", () => {
    expect(blockie("Acme")).toEqual({
      size: 8,
      scale: 4,
      color: "hsl(0,40.00011776573956%,9.576000552624464%)",
      bgcolor: "hsl(8,40.70371131412685%,6.092728825751692%)",
      spotcolor: "hsl(58,49.078234415501356%,71.52262850431725%)",
      // biome-ignore format: one row of 8 cells a line
      cells: [
        1, 0, 1, 1, 1, 1, 0, 1,
        0, 0, 2, 0, 0, 2, 0, 0,
        1, 0, 0, 1, 1, 0, 0, 1,
        2, 0, 1, 1, 1, 1, 0, 2,
        2, 0, 1, 2, 2, 1, 0, 2,
        0, 1, 2, 1, 1, 2, 1, 0,
        1, 1, 0, 0, 0, 0, 1, 1,
        1, 0, 0, 0, 0, 0, 0, 1,
      ],
    });
  });

  it("mirrors all but the middle column of an odd size (5 cells: 3 drawn, 2 mirrored)", () => {
    expect(blockie("Demo client", 5, 3)).toEqual({
      size: 5,
      scale: 3,
      color: "hsl(33,43.70394951663911%,39.09650528803468%)",
      bgcolor: "hsl(345,42.49625811353326%,48.687433707527816%)",
      spotcolor: "hsl(281,92.18733693473041%,51.11346567282453%)",
      // biome-ignore format: one row of 5 cells a line
      cells: [
        1, 1, 0, 1, 1,
        1, 1, 1, 1, 1,
        1, 1, 1, 1, 1,
        1, 0, 0, 0, 1,
        1, 0, 1, 0, 1,
      ],
    });
  });

  it("reads the name without case", () => {
    expect(blockie("ACME")).toEqual(blockie("Acme"));
  });
});
