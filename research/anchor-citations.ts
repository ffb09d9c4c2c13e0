// Issue 26 item 4, "every citation locates its fact": gives every repository citation in sources/evidence/*.csv and
// sources/qualifications/*.csv the place in the cited file where the row's programme is stated: `#L<n>` in a text
// file, `#page=<n>` in a PDF, at the commit the URL names. Idempotent: a correct anchor is kept, a wrong one replaced.
//
//   npx tsx research/anchor-citations.ts [--mirrors /work/.mirror] [--files <dir>] [--check]
//
// The cited file is read from the `fetch` tool's bare git copies (`<mirrors>/<owner>+<repo>/repo`, `git show
// <commit>:<path>`), else from a loose copy `<files>/<owner>+<repo>/<commit>/<path>` (for repositories that could not
// be fetched). An evidence row is located by its `name_as_written` (exactly, then normalised: case, punctuation, "&"
// and "and", spaces; several occurrences: the one whose neighbourhood also holds the row's `min_aps`). A qualification
// row takes the anchor of the evidence row it was published from (same qualification, same cited file). Rows the
// script cannot place by itself are placed in research/citation-overrides.csv (base URL and name -> anchored URL),
// which also moves the few `blob/HEAD` citations to a fixed commit. `--check` writes nothing and lists every row it
// cannot anchor, with file:line and why.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { toCsv, type CellValue } from "../importers/output.ts";
import { writeFileAtomically } from "../lib/write-atomically.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SOURCES = path.join(ROOT, "sources");
const OVERRIDES = path.join(ROOT, "research", "citation-overrides.csv");

type Row = Record<string, string>;
type Table = { file: string; columns: string[]; rows: Row[]; text: string };

/** A github.com citation taken apart: `https://github.com/<repo>/<kind>/<ref>/<path>#<anchor>`. */
type GithubUrl = { repo: string; kind: string; ref: string; path: string; anchor: string };

const SHA = /^[0-9a-f]{40}$/;

export function parseGithubUrl(url: string): GithubUrl | null {
  const match = /^https:\/\/github\.com\/([^/]+\/[^/]+)\/(blob|tree|raw)\/([^/]+)\/([^#?]*)(?:#(.*))?$/.exec(url);
  if (!match) return null;
  return { repo: match[1] ?? "", kind: match[2] ?? "", ref: match[3] ?? "", path: match[4] ?? "", anchor: match[5] ?? "" };
}

const baseUrl = (url: string): string => url.replace(/#.*$/, "");

/** Lower case, "&" as "and", accents dropped, every run of punctuation and space one space. */
export function normalise(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&amp;|&/g, " and ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the cited files

type Document = { kind: "text"; lines: string[] } | { kind: "pdf"; pages: string[] };

class Library {
  private readonly cache = new Map<string, Document | string>();
  constructor(
    private readonly mirrors: string,
    private readonly files: string | null,
  ) {}

  /** The file at that commit, or why it cannot be read. */
  get(repo: string, ref: string, filePath: string): Document | string {
    const key = `${repo}@${ref}:${filePath}`;
    let document = this.cache.get(key);
    if (document === undefined) {
      document = this.read(repo, ref, filePath);
      this.cache.set(key, document);
    }
    return document;
  }

  private read(repo: string, ref: string, filePath: string): Document | string {
    const bytes = this.bytes(repo, ref, filePath);
    if (typeof bytes === "string") return bytes;
    if (filePath.toLowerCase().endsWith(".pdf")) {
      const folder = mkdtempSync(path.join(tmpdir(), "anchor-"));
      try {
        const pdf = path.join(folder, "file.pdf");
        writeFileSync(pdf, bytes);
        const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8", maxBuffer: 1 << 30 });
        const pages = text.split("\f");
        if (pages.length > 1 && pages[pages.length - 1]?.trim() === "") pages.pop();
        return { kind: "pdf", pages };
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }
    return { kind: "text", lines: bytes.toString("utf8").split(/\r?\n/) };
  }

  private bytes(repo: string, ref: string, filePath: string): Buffer | string {
    const gitDir = path.join(this.mirrors, repo.replace("/", "+"), "repo");
    if (existsSync(gitDir)) {
      try {
        return execFileSync("git", ["-C", gitDir, "show", `${ref}:${filePath}`], { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
      } catch {
        // not at that commit in this copy: try the loose copies
      }
    }
    if (this.files) {
      const loose = path.join(this.files, repo.replace("/", "+"), ref, filePath);
      if (existsSync(loose)) return readFileSync(loose);
    }
    return existsSync(gitDir) ? `the copy of ${repo} has no ${filePath} at ${ref.slice(0, 10)}` : `no copy of ${repo} (not fetchable)`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Locating a name

/** Every place (1-based line or page) where `name` is written, exactly first, else normalised. */
function occurrences(document: Document, name: string): { places: number[]; how: string } {
  const units = document.kind === "text" ? document.lines : document.pages;
  const exact: number[] = [];
  units.forEach((unit, index) => {
    if (unit.includes(name)) exact.push(index + 1);
  });
  if (exact.length > 0) return { places: exact, how: "exact" };
  const wanted = normalise(name);
  if (wanted === "") return { places: [], how: "" };
  const padded = (text: string): string => ` ${normalise(text)} `;
  const normalised: number[] = [];
  if (document.kind === "text") {
    document.lines.forEach((line, index) => {
      if (padded(line).includes(` ${wanted} `)) normalised.push(index + 1);
    });
    if (normalised.length > 0) return { places: normalised, how: "normalised" };
    // A name broken over two or three lines (a wrapped cell): the line where it starts.
    for (let index = 0; index < document.lines.length; index++) {
      const joined = padded(document.lines.slice(index, index + 3).join(" "));
      if (joined.includes(` ${wanted} `) && !padded(document.lines.slice(index + 1, index + 3).join(" ")).includes(` ${wanted} `)) {
        normalised.push(index + 1);
      }
    }
    return { places: normalised, how: "normalised, over lines" };
  }
  // A PDF page: the name on one line, or across the page's lines (a wrapped table cell), or (last) as the words of one
  // column: each layout line's cells, read down the page.
  document.pages.forEach((page, index) => {
    if (padded(page).includes(` ${wanted} `) || cellsDownThePage(page).includes(` ${wanted} `)) normalised.push(index + 1);
  });
  return { places: normalised, how: "normalised" };
}

/** A layout page's text read cell by cell: each line's cells (split at two or more spaces) in order, and then each
 * column (the cells that start at the same position) read down the page; normalised. */
function cellsDownThePage(page: string): string {
  const lines = page.split("\n");
  const columns = new Map<number, string[]>();
  for (const line of lines) {
    for (const cell of line.matchAll(/\S+(?: \S+)*/g)) {
      const start = cell.index ?? 0;
      const key = [start, start - 1, start + 1].find((candidate) => columns.has(candidate)) ?? start;
      columns.set(key, [...(columns.get(key) ?? []), cell[0]]);
    }
  }
  const byColumn = [...columns.values()].map((cells) => normalise(cells.join(" "))).join(" | ");
  return ` ${normalise(lines.flatMap((line) => line.split(/\s{2,}/)).join(" "))} | ${byColumn} `;
}

/** Whether a text line states the name as a whole value (a quoted string, a CSV cell, the whole line) rather than in
 * passing (inside another programme's note). */
function statesWhole(line: string, name: string): boolean {
  const trimmed = line.trim();
  return (
    line.includes(`'${name}'`) ||
    line.includes(`"${name}"`) ||
    line.includes(`\`${name}\``) ||
    trimmed === name ||
    trimmed.startsWith(`${name},`) ||
    line.includes(`,${name},`) ||
    trimmed.endsWith(`,${name}`)
  );
}

/** Whether the text holds `value` as a number on its own. */
function holdsNumber(text: string, value: string): boolean {
  return new RegExp(`(^|[^0-9.])${value.replace(/[.]/g, "\\.")}([^0-9]|$)`).test(text);
}

/** The occurrence to cite: the one whose neighbourhood holds the row's min_aps, else the first. */
function choose(document: Document, places: number[], minAps: string): number | undefined {
  if (places.length <= 1 || !/^\d+(\.\d+)?$/.test(minAps)) return places[0];
  const near = (place: number, reach: number): string =>
    document.kind === "text" ? document.lines.slice(Math.max(0, place - 1 - reach), place + reach).join("\n") : (document.pages[place - 1] ?? "");
  for (const reach of [0, 3, 8, 15]) {
    const holding = places.filter((place) => holdsNumber(near(place, reach), minAps));
    if (holding.length > 0) return holding[0];
  }
  return places[0];
}

/** The lines or page an anchor names, or null when it is not of the file's kind. */
function anchorPlaces(anchor: string, document: Document): [number, number] | null {
  if (document.kind === "pdf") {
    const page = /^page=(\d+)$/.exec(anchor);
    return page ? [Number(page[1]), Number(page[1])] : null;
  }
  const lines = /^L(\d+)(?:-L(\d+))?$/.exec(anchor);
  return lines ? [Number(lines[1]), Number(lines[2] ?? lines[1])] : null;
}

const anchorOf = (document: Document, place: number): string => (document.kind === "pdf" ? `page=${place}` : `L${place}`);

/** How far from a line anchor the name may stand and the anchor still be right: the anchor names the record's first
 * line (a JSON or TypeScript object, the name a few lines below) or a table row's code line (the name, wrapped, just
 * above it). */
const ABOVE = 3;
const BELOW = 6;

const STOPWORDS = new Set(["and", "the", "for", "with", "of", "in", "a", "an", "to", "or"]);

/** Whether a line anchor names the programme's code line (its code, or a lone code-like token placed by hand). */
function codeAnchored(document: Document, [first, last]: [number, number], code: string): boolean {
  if (document.kind !== "text") return false;
  const anchored = document.lines.slice(first - 1, last);
  if (code.length >= 4 && new RegExp(`(^|[^A-Za-z0-9])${code}([^A-Za-z0-9]|$)`).test(anchored.join("\n"))) return true;
  return anchored.length === 1 && /^\s*[A-Z0-9]{5,8}\s*$/.test(anchored[0] ?? "") && /\d/.test(anchored[0] ?? "");
}

/** Whether an existing anchor names a place that states the programme: the name is there (within the reach above, for
 * lines; on the page, for a PDF, also read cell by cell), or (a PDF page, whose layout may break a name apart) the
 * page holds the row's min_aps and most words of the name. */
function anchorHolds(document: Document, [first, last]: [number, number], name: string, minAps: string, code: string): boolean {
  const wanted = ` ${normalise(name)} `;
  if (wanted.trim() === "") return false;
  // The programme's own code on the anchored line or page identifies it as well as its name (a table read column by
  // column, where the names stand in another order than the rows: the anchor names the row's code).
  const codeThere = (text: string): boolean => code.length >= 4 && new RegExp(`(^|[^A-Za-z0-9])${code}([^A-Za-z0-9]|$)`).test(text);
  if (document.kind === "text") {
    if (first < 1 || last > document.lines.length) return false;
    const anchored = document.lines.slice(first - 1, last);
    if (codeThere(anchored.join("\n"))) return true;
    // A line that is a programme code alone (a table pdftotext read column by column, whose names stand in another
    // order than its rows): the row was placed by hand at its code, which may differ from the code we now publish.
    if (anchored.length === 1 && /^\s*[A-Z0-9]{5,8}\s*$/.test(anchored[0] ?? "") && /\d/.test(anchored[0] ?? "")) return true;
    const window = ` ${normalise(document.lines.slice(Math.max(0, first - 1 - ABOVE), last + BELOW).join(" "))} `;
    // "HEADING: programme" (a name the witness row composed from a table's heading and its row): each part there.
    return window.includes(wanted) || (name.includes(": ") && name.split(": ").every((part) => window.includes(` ${normalise(part)} `)));
  }
  const page = document.pages[first - 1];
  if (page === undefined) return false;
  if (` ${normalise(page)} `.includes(wanted) || cellsDownThePage(page).includes(wanted) || codeThere(page)) return true;
  const words = normalise(name)
    .split(" ")
    .filter((word) => !STOPWORDS.has(word));
  const onPage = new Set(normalise(page).split(" "));
  const share = words.filter((word) => onPage.has(word)).length / Math.max(1, words.length);
  const apsStated = !/^\d+$/.test(minAps) || holdsNumber(page, minAps);
  return share >= 0.75 && apsStated;
}

type Located = { url: string } | { problem: string };

/** The anchored URL for a row that says `name` (and `minAps`), keeping a correct existing anchor. */
function locate(library: Library, url: string, name: string, minAps: string, code: string): Located {
  const parsed = parseGithubUrl(url);
  if (!parsed) return { problem: "not a github.com file URL" };
  if (!SHA.test(parsed.ref)) return { problem: `names no fixed commit (${parsed.ref})` };
  const document = library.get(parsed.repo, parsed.ref, decodeURIComponent(parsed.path));
  if (typeof document === "string") return { problem: document };
  const places = [...occurrences(document, name).places];
  const existing = parsed.anchor ? anchorPlaces(parsed.anchor, document) : null;
  // Where the name stands as a whole value somewhere, the place is one of those (not a passing mention in another
  // programme's note); an existing line anchor whose neighbourhood holds none of them is wrong.
  const whole = document.kind === "text" ? places.filter((place) => statesWhole(document.lines[place - 1] ?? "", name)) : [];
  // The anchored lines state it whole, or open the record (`{`) whose name line follows within reach.
  const opens = (line: string): boolean => /[{[]\s*$/.test(line) || /^\s*\{\s*\.\.\.\w+,/.test(line);
  const wholeNear = ([first, last]: [number, number]): boolean =>
    whole.some((place) => place >= first && place <= last) ||
    (document.kind === "text" && opens(document.lines[first - 1] ?? "") && whole.some((place) => place > last && place <= last + BELOW));
  if (
    existing &&
    anchorHolds(document, existing, name, minAps, code) &&
    (whole.length === 0 || wholeNear(existing) || codeAnchored(document, existing, code))
  )
    return { url };
  if (places.length === 0 && code.length >= 4 && !existing) {
    // The name defeats the layout: the place of the programme's own code.
    const units = document.kind === "text" ? document.lines : document.pages;
    const pattern = new RegExp(`(^|[^A-Za-z0-9])${code}([^A-Za-z0-9]|$)`);
    units.forEach((unit, index) => {
      if (pattern.test(unit)) places.push(index + 1);
    });
  }
  if (places.length === 0) {
    const size = document.kind === "pdf" ? `${document.pages.length} pages` : `${document.lines.length} lines`;
    return { problem: `"${name}" is not in the file (${size})${parsed.anchor ? `; kept #${parsed.anchor}, unverified` : ""}` };
  }
  const place = choose(document, whole.length > 0 ? whole : places, minAps);
  return { url: `${baseUrl(url)}#${anchorOf(document, place ?? 1)}` };
}

// ---------------------------------------------------------------------------------------------------------------
// The tables

function readTable(file: string): Table {
  const text = readFileSync(file, "utf8");
  const columns = (parse(text.slice(0, text.indexOf("\n") + 1)) as string[][])[0] ?? [];
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Row[];
  return { file, columns, rows, text };
}

const tables = (folder: string): Table[] =>
  readdirSync(path.join(SOURCES, folder))
    .filter((name) => name.endsWith(".csv"))
    .sort()
    .map((name) => readTable(path.join(SOURCES, folder, name)));

function serialise(table: Table): string {
  return toCsv(
    table.columns,
    table.rows.map((row) => Object.fromEntries(table.columns.map((column) => [column, (row[column] ?? "") as CellValue]))),
  );
}

type Override = { source_url: string; name_as_written: string; anchored_url: string };

function readOverrides(): Map<string, string> {
  const overrides = new Map<string, string>();
  if (!existsSync(OVERRIDES)) return overrides;
  for (const row of parse(readFileSync(OVERRIDES, "utf8"), { columns: true, skip_empty_lines: true }) as Override[]) {
    overrides.set(`${baseUrl(row.source_url)}\u0000${row.name_as_written}`, row.anchored_url);
  }
  return overrides;
}

// ---------------------------------------------------------------------------------------------------------------

/** Per repository: rows given an anchor this run, rows whose anchor was checked and kept, rows that keep an anchor the
 * script could not check (no copy of the file, or the name defeats it), rows left without a fixed commit or anchor. */
type Tally = { anchored: number; kept: number; unverified: number; left: number };

const COLUMNS = ["anchored", "kept", "unverified", "left"] as const;

/** A row the script could not place: still anchored at a fixed commit (unverified), or not (left). */
const unplaced = (url: string): "unverified" | "left" => {
  const parsed = parseGithubUrl(url);
  return parsed && SHA.test(parsed.ref) && /^(L\d+(-L\d+)?|page=\d+)$/.test(parsed.anchor) ? "unverified" : "left";
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string): string | null => {
    const index = args.indexOf(name);
    return index >= 0 ? (args[index + 1] ?? null) : null;
  };
  const check = args.includes("--check");
  const library = new Library(option("--mirrors") ?? "/work/.mirror", option("--files"));
  const overrides = readOverrides();
  const tally = new Map<string, Tally>();
  const count = (url: string, what: keyof Tally): void => {
    const repo = parseGithubUrl(url)?.repo ?? "?";
    const entry = tally.get(repo) ?? { anchored: 0, kept: 0, unverified: 0, left: 0 };
    entry[what]++;
    tally.set(repo, entry);
  };
  const problems: string[] = [];
  const relative = (file: string): string => path.relative(ROOT, file);

  // Evidence rows first: a qualification row takes the anchor of the evidence row it was published from.
  const qualifications = tables("qualifications");
  const codes = new Map(qualifications.flatMap((table) => table.rows.map((row) => [row.id ?? "", (row.code ?? "").replace(/[^A-Za-z0-9]/g, "")])));
  const evidence = tables("evidence");
  const anchoredEvidence = new Map<string, { url: string; minAps: string }[]>();
  const changed = new Set<Table>();
  for (const table of evidence) {
    table.rows.forEach((row, index) => {
      const url = row.source_url ?? "";
      if (!url.startsWith("https://github.com/")) return;
      const name = row.name_as_written ?? "";
      const override = overrides.get(`${baseUrl(url)}\u0000${name}`);
      const located: Located = override
        ? { url: override }
        : locate(library, url, name, row.min_aps ?? "", codes.get(row.qualification_id ?? "") ?? "");
      if ("url" in located) {
        if (located.url !== url) {
          if (process.env.ANCHOR_DEBUG) console.log(`CHANGE ${relative(table.file)}:${index + 2}: ${name}: ${url} -> ${located.url}`);
          row.source_url = located.url;
          changed.add(table);
          count(url, "anchored");
        } else count(url, "kept");
      } else {
        count(url, unplaced(url));
        problems.push(`${relative(table.file)}:${index + 2}: ${name}: ${located.problem}`);
      }
      const key = `${row.qualification_id}\u0000${baseUrl(row.source_url ?? "")}`;
      anchoredEvidence.set(key, [...(anchoredEvidence.get(key) ?? []), { url: row.source_url ?? "", minAps: row.min_aps ?? "" }]);
    });
  }

  for (const table of qualifications) {
    table.rows.forEach((row, index) => {
      const url = row.source_url ?? "";
      if (!url.startsWith("https://github.com/")) return;
      // The evidence row it was published from: same qualification, same file (at the commit the override gave it).
      const name = row.name ?? "";
      const override = overrides.get(`${baseUrl(url)}\u0000${name}`);
      const candidates = anchoredEvidence.get(`${row.id}\u0000${baseUrl(override ?? url)}`) ?? [];
      const published = candidates.find((candidate) => candidate.minAps === (row.min_aps ?? "")) ?? candidates[0];
      const located: Located = override
        ? { url: override }
        : published && parseGithubUrl(published.url)?.anchor
          ? { url: published.url }
          : published
            ? { problem: `its evidence row is not anchored (${published.url})` }
            : locate(library, url, name, row.min_aps ?? "", row.code ?? "");
      if ("url" in located) {
        if (located.url !== url) {
          row.source_url = located.url;
          changed.add(table);
          count(url, "anchored");
        } else count(url, "kept");
      } else {
        count(url, unplaced(url));
        problems.push(`${relative(table.file)}:${index + 2}: ${name}: ${located.problem}`);
      }
    });
  }

  for (const problem of problems) console.log(problem);
  const line = (label: string, entry: Tally): string => `${label.padEnd(32)}${COLUMNS.map((column) => String(entry[column]).padStart(11)).join("")}`;
  console.log(`\n${"repository".padEnd(32)}${COLUMNS.map((column) => column.padStart(11)).join("")}`);
  const total: Tally = { anchored: 0, kept: 0, unverified: 0, left: 0 };
  for (const [repo, entry] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(line(repo, entry));
    for (const column of COLUMNS) total[column] += entry[column];
  }
  console.log(line("total", total));
  console.log(check ? "(--check: nothing written)" : `${changed.size} file(s) rewritten`);
  if (!check) {
    for (const table of changed) await writeFileAtomically(table.file, serialise(table));
  }
  if (check && problems.length > 0) process.exitCode = 1;
}

await main();
