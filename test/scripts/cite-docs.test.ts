/**
 * scripts/cite-docs.mjs as a child process on a scratch repository: citations of documents outside
 * the repository become links to docs/ in comments and test names, strings the product prints stay
 * as they are, and --check lists what is left (docs/decisions.md, docs/exchange-rules.md).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "../../scripts/cite-docs.mjs");

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function repo(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), "cite-docs-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const run = (...args: string[]) => {
  const result = spawnSync(process.execPath, [SCRIPT, "--root", root, ...args], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};
const read = (path: string) => readFileSync(join(root, path), "utf8");

const LIB = `/** Statuses (seed 001 §4), limits (001 §5, §9) and ids (PRODUCT D11). */
export const a = 1; // per D4, and PRODUCT D21–D25; see seed 000 §2 "Order book", §5 "Numbers"
/* PRODUCT "The backend": storage; PRODUCT exchange facts; (000 §5, §8, PRODUCT D1) */
export function refuse(): never {
  throw new Error("No credentials for this bot (PRODUCT D4)");
}
export const url = "http://host//path"; // (D13) after a string holding //
export const re = /seed 001 §4|PRODUCT D2/;
/** a wrapped citation (the rule; PRODUCT
 *   D11) keeps its line break */
`;
const TEST = `import { expect, it, describe } from "vitest";
describe("gate errors (001 §8, PRODUCT error kinds)", () => {
  it("maps htx partial-canceled to open (001 §4, PRODUCT D9)", () => {
    expect("Invalid pair: write it as BASE_QUOTE (seed 001 §7)").toContain("seed 001 §7");
  });
  it.each([1])(\`case %s (D18)\`, () => {});
  it("never sends it twice (PRODUCT)", () => {});
});
`;
const TSX = `export const Page = () => (
  <p>
    Don't // look (seed 000 §2)
    {/* the toast of seed 000 §8 */}
  </p>
);
`;

describe("scripts/cite-docs.mjs (docs/decisions.md)", () => {
  it("rewrites comments and test names to docs/ links and leaves strings, regexes and JSX text", () => {
    repo({
      "lib/a.ts": LIB,
      "test/a.test.ts": TEST,
      "web/src/page.tsx": TSX,
      "node_modules/x/b.ts": "// seed 001 §4\n",
    });
    const result = run();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("rewrote citations in 9 comments and test names in 3 files");

    expect(
      read("lib/a.ts"),
    ).toBe(`/** Statuses (docs/exchange-rules.md#states), limits (docs/exchange-rules.md#validation, #limits) and ids (docs/decisions.md#d11). */
export const a = 1; // per docs/decisions.md#d4, and docs/decisions.md#d21–#d25; see docs/dashboard-rules.md#screens "Order book", docs/dashboard-rules.md#validation "Numbers"
/* docs/api.md#backend: storage; docs/exchange-rules.md#exchange-facts; (docs/dashboard-rules.md#validation, docs/api.md#errors, docs/decisions.md#d1) */
export function refuse(): never {
  throw new Error("No credentials for this bot (PRODUCT D4)");
}
export const url = "http://host//path"; // (docs/decisions.md#d13) after a string holding //
export const re = /seed 001 §4|PRODUCT D2/;
/** a wrapped citation (the rule;
 *   docs/decisions.md#d11) keeps its line break */
`);
    expect(read("test/a.test.ts")).toBe(`import { expect, it, describe } from "vitest";
describe("gate errors (docs/exchange-rules.md#errors, #contract)", () => {
  it("maps htx partial-canceled to open (docs/exchange-rules.md#states, docs/decisions.md#d9)", () => {
    expect("Invalid pair: write it as BASE_QUOTE (seed 001 §7)").toContain("seed 001 §7");
  });
  it.each([1])(\`case %s (docs/decisions.md#d18)\`, () => {});
  it("never sends it twice (PRODUCT)", () => {});
});
`);
    expect(read("web/src/page.tsx")).toBe(`export const Page = () => (
  <p>
    Don't // look (seed 000 §2)
    {/* the toast of docs/api.md#errors */}
  </p>
);
`);
    expect(read("node_modules/x/b.ts")).toBe("// seed 001 §4\n");

    // what is left: the strings the product prints or a test compares, and a citation with no section
    expect(result.stdout).toContain("4 citation(s) of documents outside the repository left");
    expect(result.stdout).toContain("lib/a.ts:5: in a string (not rewritten)");
    expect(result.stdout).toContain("test/a.test.ts:4: in a string (not rewritten)");
    expect(result.stdout).toContain("test/a.test.ts:7: comment or test name");
    expect(result.stdout).toContain("web/src/page.tsx:3: in a string (not rewritten)");
  });

  it("--check changes nothing, lists every citation left and exits 1; a clean tree exits 0", () => {
    repo({ "lib/a.ts": LIB, "test/a.test.ts": TEST });
    const check = run("--check");
    expect(check.code).toBe(1);
    expect(read("lib/a.ts")).toBe(LIB);
    expect(check.stdout).toContain("lib/a.ts:1: comment or test name: /** Statuses (seed 001 §4)");
    expect(check.stdout).toContain("test/a.test.ts:3: comment or test name");

    expect(run().stdout).toContain("rewrote citations in 8 comments and test names in 2 files");
    expect(run().stdout).toContain("rewrote citations in 0 comments and test names in 0 files");
    writeFileSync(join(root, "lib/a.ts"), read("lib/a.ts").replace("(PRODUCT D4)", "(add the API key)"));
    writeFileSync(
      join(root, "test/a.test.ts"),
      read("test/a.test.ts")
        .replaceAll("seed 001 §7", "BASE_QUOTE")
        .replace("(PRODUCT)", "(docs/exchange-rules.md#contract)"),
    );
    const clean = run("--check");
    expect(clean.stdout).toContain("no citation of a document outside the repository");
    expect(clean.code).toBe(0);
  });

  it("rewrites README.md and docs/*.md prose into relative markdown links, not headings or code", () => {
    repo({
      "README.md": "Admins only (PRODUCT D5); see `seed 001 §4` in code.\n",
      "docs/bots.md": [
        "## Floating (D21)",
        'PRODUCT "Bots" and decisions D16, D21–D25; limits (seed 001 §5, §9).',
        "```",
        "PRODUCT D7",
        "```",
        "",
      ].join("\n"),
    });
    expect(run().code).toBe(0);
    expect(read("README.md")).toBe("Admins only ([D5](docs/decisions.md#d5)); see `seed 001 §4` in code.\n");
    expect(read("docs/bots.md")).toBe(
      [
        "## Floating (D21)",
        "[product.md#bots](product.md#bots) and decisions [D16](decisions.md#d16), [D21](decisions.md#d21)–[D25](decisions.md#d25); limits ([exchange-rules.md#validation](exchange-rules.md#validation), [#limits](exchange-rules.md#limits)).",
        "```",
        "PRODUCT D7",
        "```",
        "",
      ].join("\n"),
    );
    expect(run("--check").code).toBe(0);
  });

  it("refuses a --root that is not a directory", () => {
    repo({});
    const result = spawnSync(process.execPath, [SCRIPT, "--root", join(root, "missing")], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("is not a directory");
  });
});
