/**
 * Client avatars (docs/dashboard-rules.md#screens "a generated round avatar derived from the client name (grid of 8
 * cells, scale 4)"): the blockies algorithm — a xorshift generator seeded from the name picks
 * three HSL colours and a left half of cells that is mirrored to the right. Pure and isomorphic;
 * the web draws the cells as SVG rects.
 */

export interface Blockie {
  size: number;
  scale: number;
  color: string;
  bgcolor: string;
  spotcolor: string;
  /** size*size cells, row by row: 0 background, 1 colour, 2 spot colour */
  cells: number[];
}

function seeded(seed: string): () => number {
  const s = [0, 0, 0, 0];
  for (let i = 0; i < seed.length; i++) {
    const j = i % 4;
    s[j] = ((s[j] as number) << 5) - (s[j] as number) + seed.charCodeAt(i);
  }
  return () => {
    // xorshift128 over 32-bit ints, as in the original blockies
    const t = (s[0] as number) ^ ((s[0] as number) << 11);
    s[0] = s[1] as number;
    s[1] = s[2] as number;
    s[2] = s[3] as number;
    s[3] = (s[3] as number) ^ ((s[3] as number) >> 19) ^ t ^ (t >> 8);
    return ((s[3] as number) >>> 0) / ((1 << 31) >>> 0);
  };
}

export function blockie(seed: string, size = 8, scale = 4): Blockie {
  const rand = seeded(seed.toLowerCase());
  const color = (): string => {
    const h = Math.floor(rand() * 360);
    const s = `${rand() * 60 + 40}%`;
    const l = `${(rand() + rand() + rand() + rand()) * 25}%`;
    return `hsl(${h},${s},${l})`;
  };
  const c = color();
  const bg = color();
  const spot = color();
  const dataWidth = Math.ceil(size / 2);
  const mirrorWidth = size - dataWidth;
  const cells: number[] = [];
  for (let y = 0; y < size; y++) {
    // Stryker disable next-line ArrayDeclaration: every cell of the row is written below
    const row: number[] = [];
    for (let x = 0; x < dataWidth; x++) row[x] = Math.floor(rand() * 2.3);
    const mirrored = row.slice(0, mirrorWidth).reverse();
    cells.push(...row, ...mirrored);
  }
  return { size, scale, color: c, bgcolor: bg, spotcolor: spot, cells };
}
