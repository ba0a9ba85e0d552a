#!/usr/bin/env node
/**
 * Rewrites citations of documents a maintainer of this repository does not have ("seed 001 §4",
 * "000 §8", "PRODUCT D11", "(D13)", PRODUCT "The backend" …) into links to the repository's own
 * docs ("docs/exchange-rules.md#states", "docs/api.md#errors", "docs/decisions.md#d11" …).
 *
 *     node scripts/cite-docs.mjs            rewrite in place, then list what is left
 *     node scripts/cite-docs.mjs --check    rewrite nothing; list every citation left, exit 1 if any
 *     --root DIR                            the repository to work on (default: this script's repo)
 *
 * Only citation text changes: comments, and the name (first argument) of a test call
 * (`it`, `test`, `describe`, `bench`, `suite`, with `.skip`/`.only`/`.each(…)` …). Any other string,
 * template or JSX text is what the product or a test compares, so a citation there is only listed
 * ("in a string"), never rewritten. Files are parsed with @babel/parser, so a `//` inside a string,
 * an apostrophe in JSX text or a regular expression is never mistaken for a comment or a string.
 * README.md and docs/*.md are rewritten too, in their prose only (not headings, code spans or
 * fenced code), as markdown links relative to the file ("[D11](decisions.md#d11)").
 * The anchors are those of docs/decisions.md, docs/exchange-rules.md, docs/dashboard-rules.md,
 * docs/api.md and docs/product.md.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "@babel/parser";

const DIRS = ["lib", "exchanges", "cli", "tui", "server", "web/src", "test", "bench", "scripts"];
const EXTENSIONS = [".ts", ".tsx", ".mjs"];
const SKIP_DIRS = new Set(["node_modules", "dist"]);
/** This script and its test hold citations on purpose (the forms it rewrites). */
const SELF = ["scripts/cite-docs.mjs", "test/scripts/cite-docs.test.ts"];

/** Section of a specification → the doc and anchor that state its rules. */
const SECTIONS = {
  "000": {
    1: "docs/dashboard-rules.md#overview",
    2: "docs/dashboard-rules.md#screens",
    3: "docs/dashboard-rules.md#entities",
    4: "docs/dashboard-rules.md#states",
    5: "docs/dashboard-rules.md#validation",
    6: "docs/dashboard-rules.md#roles",
    7: "docs/api.md#calls",
    8: "docs/api.md#errors",
    9: "docs/dashboard-rules.md#constants",
  },
  "001": {
    1: "docs/exchange-rules.md#operations",
    2: "docs/exchange-rules.md#chart",
    3: "docs/exchange-rules.md#entities",
    4: "docs/exchange-rules.md#states",
    5: "docs/exchange-rules.md#validation",
    6: "docs/exchange-rules.md#permissions",
    7: "docs/exchange-rules.md#calls",
    8: "docs/exchange-rules.md#errors",
    9: "docs/exchange-rules.md#limits",
  },
};
/** A whole specification cited without a section. */
const DOCUMENTS = { "000": "docs/dashboard-rules.md", "001": "docs/exchange-rules.md" };
/** Sections of the product design other than its decisions, by the names comments use. */
const PRODUCT_SECTIONS = [
  [/^(?:"The backend"|backend\b)/, "docs/api.md#backend"],
  [/^(?:"The exchange layer contract"|contract\b|error kinds\b)/, "docs/exchange-rules.md#contract"],
  [/^(?:"The CLI surface"|CLI surface\b)/, "docs/product.md#cli-surface"],
  [/^(?:"Exchange facts"|exchange facts\b)/, "docs/exchange-rules.md#exchange-facts"],
  [/^(?:"Bots"|Bots\b)/, "docs/product.md#bots"],
  [/^(?:"Layout"|layout\b)/, "docs/product.md#layout"],
  [/^"The embedded default: paper"/, "docs/product.md#paper"],
];
/** A quoted rule of the product design: the link replaces the word PRODUCT, the quote stays. */
const PRODUCT_PHRASES = [
  [/^:?\s*"?(?:[Aa] create is never sent twice|never two orders)/, "docs/exchange-rules.md#contract"],
  [/^\s*"Numbers cross the boundary/, "docs/exchange-rules.md#contract"],
  [/^\s*"no prompts when/, "docs/product.md#cli-surface"],
];

const DECISION = String.raw`D(?:[1-9]|1\d|2[0-5])\b`;
/** One citation; alternatives tried left to right at each position. */
const CITATION = new RegExp(
  [
    String.raw`(?<product>\bPRODUCT\b:?[\s*]*)(?=D(?:[1-9]|1\d|2[0-5])\b|"|[A-Za-z]|:)`,
    String.raw`(?<decision>\b${DECISION})`,
    String.raw`(?:\b[Ss]eeds?\s+)?\b(?<doc>000|001)\s*§\s*(?<section>[1-9])`,
    String.raw`\b[Ss]eeds?\s+(?<whole>000|001)\b`,
    String.raw`§\s*(?<bare>[1-9])`,
  ].join("|"),
  "g",
);
/** What a list of citations looks like between two of them ("§5, §9", "D21–D25"). */
const LIST_GAP = /^\s*(?:,|\/|–|-|and|or|&)\s*$/;

/** Citations still pointing outside the repository, in a comment or test name. */
const LEFT = /\bPRODUCT\b|\b[Ss]eeds?\s+00[01]\b|\b00[01]\s*§|§\s*\d|\bD(?:[1-9]|1\d|2[0-5])\b/;
/** The same, in a string the product prints or a test compares: only unmistakable citations. */
const LEFT_IN_STRING = /\bPRODUCT\s+(?:D\d|")|\b[Ss]eeds?\s+00[01]\b|\b00[01]\s*§|§\s*\d/;

const fileOf = (link) => link.split("#")[0];

/**
 * Rewrites the citations in one piece of comment or test-name text and returns it. A bare "§5"
 * belongs to the specification last named before it in the same piece.
 */
export function rewriteText(text, format = (_link, shown) => shown) {
  let out = "";
  let last = 0;
  let lastLink; // the link emitted for the previous citation, for lists
  let lastEnd = -1;
  let doc; // "000" | "001" | undefined
  CITATION.lastIndex = 0;
  for (let match = CITATION.exec(text); match; match = CITATION.exec(text)) {
    const start = match.index;
    let end = start + match[0].length;
    const groups = match.groups;
    let link;
    if (groups.product !== undefined) {
      const rest = text.slice(end);
      const decision = new RegExp(`^${DECISION}`).exec(rest);
      if (decision) {
        link = `docs/decisions.md#d${decision[0].slice(1)}`;
        end += decision[0].length;
      } else {
        const section = PRODUCT_SECTIONS.find(([pattern]) => pattern.test(rest));
        const phrase = PRODUCT_PHRASES.find(([pattern]) => pattern.test(text.slice(start + "PRODUCT".length)));
        if (section) {
          link = section[1];
          end += section[0].exec(rest)[0].length;
        } else if (phrase) {
          link = phrase[1];
          end = start + "PRODUCT".length;
        } else {
          CITATION.lastIndex = start + "PRODUCT".length;
          continue; // left for --check to list
        }
      }
    } else if (groups.decision !== undefined) {
      link = `docs/decisions.md#d${groups.decision.slice(1)}`;
    } else if (groups.doc !== undefined) {
      doc = groups.doc;
      link = SECTIONS[doc][groups.section];
    } else if (groups.whole !== undefined) {
      doc = groups.whole;
      link = DOCUMENTS[doc];
    } else if (groups.bare !== undefined) {
      if (!doc) continue; // no specification named before it: left for --check to list
      link = SECTIONS[doc][groups.bare];
    }
    // "PRODUCT\n *   D11" keeps its line break: the link starts the next line, as the number did
    const gap = groups.product ?? "";
    const lineBreak = gap.includes("\n") && end > start + gap.length ? gap.slice(gap.indexOf("\n")) : "";
    const inList =
      lastLink !== undefined &&
      link.includes("#") &&
      fileOf(link) === fileOf(lastLink) &&
      LIST_GAP.test(text.slice(lastEnd, start));
    const before = text.slice(last, start);
    out +=
      (lineBreak ? before.trimEnd() + lineBreak : before) + format(link, inList ? link.slice(link.indexOf("#")) : link);
    last = end;
    lastEnd = end;
    lastLink = link;
    CITATION.lastIndex = end;
  }
  return out + text.slice(last);
}

const TEST_CALLS = new Set(["it", "test", "describe", "bench", "suite"]);
function isTestCallee(node) {
  if (!node) return false;
  if (node.type === "Identifier") return TEST_CALLS.has(node.name);
  if (node.type === "MemberExpression") return isTestCallee(node.object);
  if (node.type === "CallExpression") return isTestCallee(node.callee); // it.each([...])("name")
  return false;
}

/** Every node of a Babel AST, with its parent. */
function walk(node, parent, visit) {
  if (!node || typeof node.type !== "string") return;
  visit(node, parent);
  for (const key of Object.keys(node)) {
    if (key === "loc" || key === "leadingComments" || key === "trailingComments" || key === "innerComments") continue;
    const value = node[key];
    if (Array.isArray(value)) for (const child of value) walk(child, node, visit);
    else if (value && typeof value.type === "string") walk(value, node, visit);
  }
}

/**
 * The pieces of one file: `rewrite` ranges (comment bodies, test names) and `strings` ranges
 * (other string, template and JSX text), each as [start, end] offsets into the source.
 */
function pieces(source, path) {
  const ast = parse(source, {
    sourceType: "module",
    errorRecovery: true,
    plugins: path.endsWith(".tsx") ? ["typescript", "jsx"] : ["typescript"],
  });
  const rewrite = [];
  const strings = [];
  for (const comment of ast.comments ?? []) rewrite.push([comment.start, comment.end]);
  walk(ast.program, undefined, (node, parent) => {
    const isName = parent?.type === "CallExpression" && parent.arguments[0] === node && isTestCallee(parent.callee);
    if (node.type === "StringLiteral" || node.type === "JSXText") {
      (isName ? rewrite : strings).push([node.start, node.end]);
    } else if (node.type === "TemplateLiteral") {
      for (const quasi of node.quasis) (isName ? rewrite : strings).push([quasi.start, quasi.end]);
    }
  });
  return { rewrite, strings };
}

function lineOf(source, offset) {
  let line = 1;
  for (let i = 0; i < offset; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** Rewrites (unless `check`) one file's source; returns the new source and what is left. */
export function processSource(source, path, { check = false } = {}) {
  const { rewrite, strings } = pieces(source, path);
  let output = source;
  let changed = 0;
  if (!check) {
    // from the end, so earlier offsets stay valid
    for (const [start, end] of [...rewrite].sort((a, b) => b[0] - a[0])) {
      const before = output.slice(start, end);
      const after = rewriteText(before);
      if (after !== before) {
        output = output.slice(0, start) + after + output.slice(end);
        changed++;
      }
    }
  }
  const left = [];
  const { rewrite: rewriteAfter, strings: stringsAfter } = check ? { rewrite, strings } : pieces(output, path);
  for (const [ranges, pattern, where] of [
    [rewriteAfter, LEFT, "comment or test name"],
    [stringsAfter, LEFT_IN_STRING, "in a string (not rewritten)"],
  ]) {
    for (const [start, end] of ranges) {
      const text = output.slice(start, end);
      const global = new RegExp(pattern.source, "g");
      for (let match = global.exec(text); match; match = global.exec(text)) {
        const at = start + match.index;
        const lineStart = output.lastIndexOf("\n", at - 1) + 1;
        const lineEnd = output.indexOf("\n", at);
        const line = lineOf(output, at);
        if (left.some((item) => item.line === line && item.where === where)) continue;
        left.push({
          line,
          where,
          text: output
            .slice(lineStart, lineEnd === -1 ? undefined : lineEnd)
            .trim()
            .slice(0, 160),
        });
      }
    }
  }
  return { output, changed, left };
}

/** The text of a markdown line that is prose: not a heading, not inside a `code span`. */
function markdownProse(line, edit) {
  if (/^\s*#/.test(line)) return line;
  return line
    .split("`")
    .map((part, i) => (i % 2 === 0 ? edit(part) : part))
    .join("`");
}

/** README.md and docs/*.md: citations in prose become markdown links relative to the file. */
export function processMarkdown(source, path, { check = false } = {}) {
  const base = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  const relativeTo = (link) => (base && link.startsWith(base) ? link.slice(base.length) : link);
  const format = (link, shown) => {
    const target = relativeTo(link);
    const decision = /#d(\d+)$/.exec(link);
    const text = decision ? `D${decision[1]}` : shown.startsWith("#") ? shown : relativeTo(shown);
    return `[${text}](${shown.startsWith("#") ? `${relativeTo(fileOf(link))}${shown}` : target})`;
  };
  let fenced = false;
  let changed = 0;
  const left = [];
  const lines = source.split("\n").map((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || /^\s*(```|~~~)/.test(line)) return line;
    const next = check ? line : markdownProse(line, (text) => rewriteText(text, format));
    if (next !== line) changed++;
    let citing = false;
    markdownProse(next, (text) => {
      citing ||= LEFT.test(text.replace(/\[[^\]]*\]\([^)]*\)/g, ""));
      return text;
    });
    if (citing) left.push({ line: index + 1, where: "markdown", text: next.trim().slice(0, 160) });
    return next;
  });
  return { output: lines.join("\n"), changed, left };
}

function* sourceFiles(root) {
  function* visit(dir) {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) yield* visit(path);
      } else if (EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
        yield path;
      }
    }
  }
  for (const dir of DIRS) yield* visit(join(root, dir));
  yield join(root, "README.md");
  const docs = join(root, "docs");
  let names = [];
  try {
    names = readdirSync(docs).filter((name) => name.endsWith(".md"));
  } catch {}
  for (const name of names.sort()) yield join(docs, name);
}

function main(argv) {
  const check = argv.includes("--check");
  const rootAt = argv.indexOf("--root");
  const root = resolve(rootAt === -1 ? join(dirname(fileURLToPath(import.meta.url)), "..") : (argv[rootAt + 1] ?? "."));
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`cite-docs: --root ${root} is not a directory`);
    return 2;
  }
  let files = 0;
  let pieceCount = 0;
  const left = [];
  for (const path of sourceFiles(root)) {
    const name = relative(root, path).split("\\").join("/");
    if (SELF.includes(name)) continue;
    let source;
    try {
      source = readFileSync(path, "utf8");
    } catch {
      continue; // README.md absent
    }
    let result;
    try {
      result = name.endsWith(".md") ? processMarkdown(source, name, { check }) : processSource(source, name, { check });
    } catch (error) {
      left.push(`${name}: cannot be parsed (${error.message}); nothing rewritten`);
      continue;
    }
    if (result.output !== source) {
      writeFileSync(path, result.output);
      files++;
      pieceCount += result.changed;
    }
    for (const item of result.left) left.push(`${name}:${item.line}: ${item.where}: ${item.text}`);
  }
  if (!check) {
    console.log(`cite-docs: rewrote citations in ${pieceCount} comments and test names in ${files} files`);
    // a longer test name can push its call past the line width
    if (files > 0) console.log("cite-docs: now run `npx biome check --write` on the changed files");
  }
  if (left.length > 0) {
    console.log(`cite-docs: ${left.length} citation(s) of documents outside the repository left:`);
    for (const line of left) console.log(`  ${line}`);
    return check ? 1 : 0;
  }
  if (check) console.log("cite-docs: no citation of a document outside the repository");
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
