// WSU's 2026 Undergraduate Information Brochure & Admission Requirements (28 pages; a copy in kamomasela/Unipath-app).
// Each faculty has a summary table (code, SAQA id, name, NQF, ...) and then pages of "MINIMUM NSC ADMISSION
// REQUIREMENTS" in three columns: QUAL DETAILS (name and code), APS Scores, Specific Subject Requirements, and a
// PROGRAMME OVERVIEW text column on the right. A block with a "Main stream" and an "Extended stream" gives two rows
// (two APS figures, two codes). The requirement texts are read phrase by phrase into the compact syntax.
import type { ExtractedRow, OfficialDocument } from "../document.ts";

const INTAKE = 2026;

type Segment = { col: number; text: string };

/** The runs of text of a line separated by two spaces or more, with their columns. */
function segments(line: string): Segment[] {
  const out: Segment[] = [];
  for (const m of line.matchAll(/\S+(?: \S+)*/g)) out.push({ col: m.index ?? 0, text: m[0] });
  return out;
}

const FOOTER = /Undergraduate Information Brochure & Admission Requirements|^\s*www\.wsu\.ac\.za\s*$/;
const HEADER = /^(QUAL DETAILS|QUALIFICATION DETAILS|MINIMUM NSC ADMISSION REQUIREMENTS|PROGRAMME OVERVIEW|APS Scores|APS|Scores|Specific Subject Requirements)$/;
const APS_FIGURE = /^(\d{2})\b/;
const NAME_START = /^(Diploma|Bachelor|Higher Certificate)\b/;
const CODE = /W6\d{4}(?:\/\d{2})*/g;

type Line = { page: number; left: string[]; aps: string | null; middle: string };
type Block = { page: number; lines: Line[]; figures: string[] };

/** The lines of one requirements page, cut into columns (the overview column dropped). */
function pageLines(text: string, page: number): Line[] {
  const raw = text.split("\n").filter((l) => !FOOTER.test(l));
  const headerCol = raw.map((l) => l.indexOf("PROGRAMME OVERVIEW")).find((i) => i >= 0) ?? Number.POSITIVE_INFINITY;
  const body = raw.map(segments).map((segs) => segs.filter((s) => !HEADER.test(s.text)));
  // The overview column starts at the leftmost text near its heading; the APS column at the leftmost APS figure.
  const overviewCol = Math.min(...body.flatMap((segs) => segs.filter((s) => s.col >= headerCol - 20).map((s) => s.col)));
  const apsCol = Math.min(...body.flatMap((segs) => segs.filter((s) => s.col > 0 && s.col < 45 && APS_FIGURE.test(s.text)).map((s) => s.col)));
  return body.map((segs) => {
    const kept = segs.filter((s) => s.col < overviewCol);
    const aps = kept.filter((s) => s.col >= apsCol - 1 && s.col <= apsCol + 3).map((s) => s.text);
    return {
      page,
      left: kept.filter((s) => s.col < apsCol - 1).map((s) => s.text),
      aps: aps.length > 0 ? aps.join(" ") : null,
      middle: kept
        .filter((s) => s.col > apsCol + 3)
        .map((s) => s.text)
        .join(" "),
    };
  });
}

const hasMainStream = (block: Block) => block.lines.some((l) => /^Main s?tream/i.test(l.middle));

/** The lines ending a block after a blank line that open with a heading of a list ("... as follows:"): the list of
 * the next block, whose APS figure is printed halfway down it. Taken off the block. */
function headingRun(block: Block): Line[] {
  const blank = (l: Line) => l.left.length === 0 && l.middle === "";
  let lastBlank = block.lines.length - 1;
  while (lastBlank >= 0 && !blank(block.lines[lastBlank] as Line)) lastBlank--;
  const run = block.lines.slice(lastBlank + 1);
  if (lastBlank < 0 || run.length === 0 || !/as follows:?$/i.test(run[0]?.middle ?? "") || run.some((l) => l.left.length > 0)) return [];
  block.lines.splice(lastBlank + 1);
  return run;
}

/** The programme blocks of the requirements pages, in order: a block starts at its APS figure. */
function blocksOf(pages: readonly string[]): Block[] {
  const blocks: Block[] = [];
  pages.forEach((text, i) => {
    if (!text.includes("MINIMUM NSC ADMISSION REQUIREMENTS")) return;
    let pending: Line[] = [];
    let current: Block | null = null;
    for (const line of pageLines(text, i + 1)) {
      const figure = line.aps && APS_FIGURE.test(line.aps) ? line.aps : null;
      if (figure && current && hasMainStream(current) && current.figures.length === 1 && !/^Main s?tream/i.test(line.middle)) {
        current.figures.push(figure);
        current.lines.push(line);
      } else if (figure) {
        const moved = current ? headingRun(current) : [];
        current = { page: i + 1, lines: [...pending, line], figures: [figure] };
        // Lines above a page's first figure: the start of that block if they name a programme, else the rest of the
        // block the previous page ended with.
        if (pending.length > 0 && !pending.some((l) => NAME_START.test(l.left.join(" ")))) {
          blocks[blocks.length - 1]?.lines.push(...pending);
          current.lines = [line];
        }
        current.lines.unshift(...moved);
        current.page = current.lines[0]?.page ?? i + 1;
        pending = [];
        blocks.push(current);
      } else if (current) {
        if (line.aps) current.figures[current.figures.length - 1] += ` ${line.aps}`;
        current.lines.push(line);
      } else if (line.left.length > 0 || line.middle !== "") pending.push(line);
    }
    if (!current && pending.length > 0) blocks[blocks.length - 1]?.lines.push(...pending);
  });
  return blocks;
}

/** Codes as printed: "W66007/09/11" is W66007, W66009, W66011. */
function codesOf(text: string): string[] {
  return [...text.matchAll(CODE)].flatMap((m) => {
    const [first, ...rest] = m[0].split("/");
    return [first ?? "", ...rest.map((r) => `${first?.slice(0, 4)}${r}`)];
  });
}

/** The faculty tables: code -> name, to check the codes the requirement pages print. */
function facultyTables(pages: readonly string[]): Map<string, { name: string; page: number }> {
  const codes = new Map<string, { name: string; page: number }>();
  pages.forEach((text, i) => {
    if (!text.includes("Qual Code")) return;
    for (const line of text.split("\n")) {
      const m = /^\s*(W6\d{4})\s+\d+\s+([A-Z].*?)(?:\s{2,}|$)/.exec(line);
      if (m?.[1] && m[2]) codes.set(m[1], { name: m[2], page: i + 1 });
    }
  });
  return codes;
}

// ---- the requirement texts -------------------------------------------------------------------------------------

const ENGLISH_BOTH = (l: number) => `english-home-language:${l}|english-first-additional-language:${l}`;
const both = (language: string) => (l: number) => `${language}-home-language:${l}|${language}-first-additional-language:${l}`;

/** Subject names as the brochure writes them (longest first), with what each stands for and a note where needed. */
const SUBJECTS: [RegExp, (level: number) => string, string?][] = [
  [/^English as a Home Language or (?:as a )?First Additional Language$/i, ENGLISH_BOTH],
  [/^English as a First Additional Language$/i, (l) => `english-first-additional-language:${l}`],
  [/^IsiXhosa as a Home Language$/i, (l) => `isixhosa-home-language:${l}`],
  [/^(?:Isi)?Xhosa(?: as a Home Language or as a First Additional Language)?$/i, both("isixhosa")],
  [/^Sesotho$/i, both("sesotho")],
  [/^any other African Language$/i, (l) => `@other-language:${l}`, `"any other African Language" encoded as another official language`],
  [/^any other language$/i, (l) => `@other-language:${l}`],
  [/^Mathematics$/i, (l) => `mathematics:${l}`],
  [/^Mathematic(?:s|al)? Literacy$/i, (l) => `mathematical-literacy:${l}`],
  [/^Technical Mathematics$/i, (l) => `technical-mathematics:${l}`],
  [/^Physical Sciences?$/i, (l) => `physical-sciences:${l}`],
  [/^Technical Sciences?$/i, (l) => `technical-sciences:${l}`],
  [/^Life Sciences?$/i, (l) => `life-sciences:${l}`],
  [/^Life Orientation \(Major\)$/i, (l) => `life-orientation:${l}`],
  [/^Accounting$/i, (l) => `accounting:${l}`],
  [/^Accountancy$/i, (l) => `accounting:${l}`, `"Accountancy" read as Accounting`],
  [/^Business Studies$/i, (l) => `business-studies:${l}`],
  [/^Economics$/i, (l) => `economics:${l}`],
  [/^History$/i, (l) => `history:${l}`],
  [/^Geography$/i, (l) => `geography:${l}`],
  [/^Music$/i, (l) => `music:${l}`],
  [/^Dance Studies$/i, (l) => `dance-studies:${l}`],
  [/^Dramatic Arts$/i, (l) => `dramatic-arts:${l}`],
  [/^Visual Arts$/i, (l) => `visual-arts:${l}`],
  [/^Consumer Studies$/i, (l) => `consumer-studies:${l}`],
  [/^Hospitality$/i, (l) => `hospitality-studies:${l}`],
  [/^Tourism$/i, (l) => `tourism:${l}`],
  [/^Agriculture$/i, (l) => `agricultural-sciences:${l}`, `"Agriculture" read as Agricultural Sciences`],
  [/^Engineering Graphics and Design(?: \(EGD\))?$/i, (l) => `engineering-graphics-and-design:${l}`],
  [
    /^Civil Technology ?\(Civil Service, Construction, Woodworking\)$/i,
    (l) => ["civil-technology", "civil-technology-civil-services", "civil-technology-construction", "civil-technology-woodworking"].map((s) => `${s}:${l}`).join("|"),
  ],
  [
    /^Electrical Technology ?\(Digital, Electronics, Power Systems\)$/i,
    (l) =>
      ["electrical-technology", "electrical-technology-digital-systems", "electrical-technology-electronics", "electrical-technology-power-systems"]
        .map((s) => `${s}:${l}`)
        .join("|"),
  ],
  [
    /^Mechanical Technology ?\(Automotive, Fitting and Machining, Welding and Metalwork\)$/i,
    (l) =>
      [
        "mechanical-technology",
        "mechanical-technology-automotive",
        "mechanical-technology-fitting-and-machining",
        "mechanical-technology-welding-and-metalwork",
      ]
        .map((s) => `${s}:${l}`)
        .join("|"),
  ],
];

const COUNT: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, "2": 2, "3": 3, "4": 4 };
const BAND = /(\d) \((\d+) ?[-–] ?(\d+)%?\)/;
const LEVEL_FLOOR = [0, 30, 40, 50, 60, 70, 80];

class Unread extends Error {}

/** A "level (band)" with a note where the band printed is not the level's. */
function level(match: RegExpExecArray, what: string, notes: string[]): number {
  const n = Number(match[1]);
  if (Number(match[2]) !== LEVEL_FLOOR[n - 1]) notes.push(`${what} printed "${match[0]}": level ${n} recorded`);
  return n;
}

/** One subject name (or "any other ... language") at a level: its alternatives. */
function subject(name: string, lvl: number, notes: string[]): string {
  const text = name.replace(/[;.,]+$/, "").trim();
  for (const [pattern, write, note] of SUBJECTS)
    if (pattern.test(text)) {
      if (note && !notes.includes(note)) notes.push(note);
      return write(lvl);
    }
  throw new Unread(`subject "${text}"`);
}

/** "any other two subjects", "any four (4) subjects", "any other subject which is not included ...": how many. */
function otherSubjects(text: string): number | null {
  const m = /^(?:in |for )?any (?:other )?(?:(one|two|three|four|THREE|FOUR)(?: \(\d\))? )?(?:additional |relevant |school |relevant school )*subjects?\b/i.exec(text);
  if (!m) return null;
  return m[1] ? (COUNT[m[1].toLowerCase()] ?? null) : 1;
}

/** A requirement item "3 (40-49%) for Mathematics or 5 (60-69%) for Mathematics Literacy": one clause, or rule clauses. */
function levelItem(text: string, notes: string[]): string[] {
  const body = text
    .replace(/^•\s*/, "")
    .replace(/ level or better/i, "")
    .replace(/[;.]+$/, "");
  // Alternatives each with a level: split before every further "level (band)".
  const parts = body.split(/,?\s+or\s+(?=\d \()/);
  const options: string[] = [];
  for (const part of parts) {
    const m = new RegExp(`^${BAND.source}\\s*(?:for|in|and)?\\s*(.*)$`).exec(part);
    if (!m?.[4]) throw new Unread(`item "${part}"`);
    const rest = m[4].replace(/\s+or$/, "").trim();
    const lvl = level(m, rest, notes);
    const others = otherSubjects(rest);
    if (others !== null) {
      if (parts.length > 1) throw new Unread(`rule among alternatives "${text}"`);
      if (/relevant/i.test(rest)) notes.push(`"${rest}" encoded as any subjects`);
      return Array.from({ length: others }, () => `@other-subject:${lvl}`);
    }
    const names = rest
      .replace(/English as a Home Language or (as a )?First Additional Language/i, (s) => s.replaceAll(" or ", " OR "))
      .replace(/Xhosa as a Home Language or as a First Additional Language/i, (s) => s.replaceAll(" or ", " OR "))
      .split(/,?\s+or\s+/)
      .map((n) => n.replaceAll(" OR ", " or "));
    for (const name of names) options.push(subject(name, lvl, notes));
  }
  return [options.join("|")];
}

const union = (clauses: readonly string[]) => [...new Set(clauses.flatMap((c) => c.split("|")))].join("|");
const lowered = (clause: string) => clause.replace(/:(\d)(?=\||$)/g, (_, l: string) => `:${Math.max(1, Number(l) - 1)}`);

type Stream = { items: string[] };
type Reading = { requirements: string | null; notes: string[] };

/** The items of a block's subject column, continuation lines joined, cut into main and extended streams. */
function streamsOf(block: Block): { main: Stream; extended: Stream | null } {
  const starts = /^(•|Main s?tream|Extended s?tream|\d \(|Any |An achievement|And one of|As for main|Note:|\(|In exceptional)/i;
  const main: Stream = { items: [] };
  let extended: Stream | null = null;
  let stream = main;
  for (const { middle } of block.lines) {
    const text = middle.trim();
    if (text === "") continue;
    if (/^Main s?tream$/i.test(text)) continue;
    if (/^Extended s?tream$/i.test(text)) {
      extended = { items: [] };
      stream = extended;
    } else if (starts.test(text) || stream.items.length === 0) stream.items.push(text);
    else stream.items[stream.items.length - 1] += ` ${text}`;
  }
  return { main, extended };
}

/** An item that ends a heading's list: another heading or note, or a rule ("4 (50-59%) in any other three subjects"). */
function endsList(item: string): boolean {
  if (/^(Any |An |And |\(|Note:|As for|In exceptional)/.test(item)) return true;
  const m = new RegExp(`^${BAND.source}\\s*(?:for|in|and)?\\s*(.*)$`).exec(item);
  return m?.[4] !== undefined && otherSubjects(m[4]) !== null;
}

/** The compact requirements of one stream's items (`main`: the main stream's reading, for "as for main-stream"). */
function readStream(stream: Stream, main: string[] | null): Reading {
  const notes: string[] = [];
  const clauses: string[] = [];
  const items = stream.items.map((i) => i.replace(/^•\s*/, "").replace(/\s+/g, " ").trim()).filter((i) => i !== "");
  try {
    for (let i = 0; i < items.length; i++) {
      const item = items[i] ?? "";
      // A heading and the list below it: its members are the following items up to a rule ("Any other ...").
      const members = () => {
        const list: string[] = [];
        while (i + 1 < items.length && !endsList(items[i + 1] ?? "")) list.push(items[++i] ?? "");
        return list;
      };
      let m: RegExpExecArray | null;
      if ((m = /^Any (one|two) (?:technical )?(?:subjects? )?(?:of the following(?: two subjects)?|at (\d \(\d+ ?- ?\d+%?\)) from the list below)$/i.exec(item))) {
        const count = COUNT[m[1]?.toLowerCase() ?? ""] ?? 1;
        const band = m[2] ? BAND.exec(m[2]) : null;
        const list = members().map((member) => (band ? levelItem(`${band[0]} for ${member}`, notes) : levelItem(member, notes)).join("|"));
        if (list.length === 0) throw new Unread(`empty list after "${item}"`);
        for (let k = 0; k < count; k++) clauses.push(union(list));
      } else if ((m = new RegExp(`^${BAND.source} for (two|2) of the subjects below$`, "i").exec(item))) {
        const band = m[0].slice(0, m[0].indexOf(")") + 1);
        const list = members().map((member) => levelItem(`${band} for ${member}`, notes)[0] ?? "");
        clauses.push(union(list), union(list));
      } else if ((m = new RegExp(`^${BAND.source} for 2 of the majors below and ${BAND.source} for the third major$`, "i").exec(item))) {
        const [low, high] = [m[0].slice(0, m[0].indexOf(")") + 1), BAND.exec(m[0].slice(m[0].indexOf(" and ")))?.[0] ?? ""];
        const names = members();
        const at = (band: string) => union(names.map((n) => levelItem(`${band} for ${n}`, notes)[0] ?? ""));
        clauses.push(at(high), at(low), at(low));
      } else if (/^An achievement in any two subjects as follows:?$/i.test(item)) {
        const list = members().flatMap((member) => levelItem(member, notes));
        clauses.push(union(list), union(list));
      } else if ((m = /^An achievement in English (\d \(\d+ ?- ?\d+%?\)) and any other subject as follows:?$/i.exec(item))) {
        const band = BAND.exec(m[1] ?? "") as RegExpExecArray;
        clauses.push(ENGLISH_BOTH(level(band, "English", notes)));
        clauses.push(union(members().flatMap((member) => levelItem(member, notes))));
      } else if ((m = /^And one of the (two|three) options below$/i.exec(item))) {
        clauses.push(union(members().flatMap((member) => levelItem(member, notes))));
      } else if ((m = /^Any other (two|three|four) subjects at (\d \(\d+ ?- ?\d+%?\))\.?$/i.exec(item))) {
        const lvl = Number(m[2]?.[0]);
        for (let k = 0; k < (COUNT[m[1]?.toLowerCase() ?? ""] ?? 0); k++) clauses.push(`@other-subject:${lvl}`);
      } else if (/^Any (?:other )?(?:two|three) (?:additional )?subjects totalling \d+ points\.?$/i.test(item)) {
        notes.push(`${item.replace(/\.$/, "")} (not encoded)`);
      } else if (/^As for main-stream with a reduced APS requirement of \d+$/i.test(item)) {
        notes.push(item);
      } else if ((m = /^As for main-?stream with pro(?:viso|vision) that applicants who have an NSC achievement rating (?:of 3 \()?one level below the required levels as mentioned above\)?, i\.e\. in ONE of the (two|three) subjects\b/i.exec(item))) {
        if (!main || main.length !== COUNT[m[1] ?? ""] || main.some((c) => c.includes("@"))) throw new Unread(`"as for main-stream" with main stream ${main?.join(";")}`);
        // Two of the subjects at the main-stream level and the third at most one level lower (a learner has one
        // English, one Mathematics and one Science, so three different subjects of the union are one of each).
        clauses.push(...main.slice(1).map(() => union(main)), union(main.map(lowered)));
        notes.push(`as for the main stream, with ONE of the ${m[1]} subjects one level lower: encoded as ${m[1]} different subjects of the main stream's, all but one at the main-stream level`);
      } else if (/^(Note:|\(|In exceptional)/.test(item)) {
        notes.push(item.replace(/^\((.*)\)$/, "$1"));
      } else if (BAND.test(item.slice(0, 12))) {
        clauses.push(...levelItem(item, notes));
      } else throw new Unread(`"${item}"`);
    }
  } catch (error) {
    if (!(error instanceof Unread)) throw error;
    return { requirements: null, notes: [`not read: ${error.message}`] };
  }
  return { requirements: clauses.length > 0 ? clauses.join(";") : null, notes };
}

/** The APS figure and, where it gives one, the Mathematical Literacy figure. */
function aps(figure: string | undefined): { min_aps: number | null; note: string | null } {
  if (!figure) return { min_aps: null, note: null };
  const m = /^(\d{2})(?: ECP)?(?: \(with Mathematics\) or (\d{2}) \(with Mathematics Literacy\))?$/.exec(figure.replace(/\s+/g, " ").trim());
  if (!m) throw new Error(`wsu-brochure-2026: APS "${figure}" not read`);
  return { min_aps: Number(m[1]), note: m[2] ? `Mathematical Literacy: APS ${m[2]}` : null };
}

function extract(pages: readonly string[]): ExtractedRow[] {
  const table = facultyTables(pages);
  const rows: ExtractedRow[] = [];
  for (const block of blocksOf(pages)) {
    const left = block.lines.flatMap((l) => l.left).join(" ");
    let codes = codesOf(left);
    const cleanName = left
      .replace(/\s*&?\s*W6\d{4}(?:\/\d{2})*\s*&?/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    const notes: string[] = [];
    // A code printed for another programme: the faculty table's code of this name.
    const printed = codes[0] ? table.get(codes[0]) : undefined;
    if (printed && !sameName(printed.name, cleanName)) {
      const own = [...table].find(([, t]) => sameName(t.name, cleanName));
      if (own) {
        notes.push(`code printed ${codes[0]} (that of ${printed.name}); ${own[0]} in the faculty table p. ${own[1].page}`);
        codes = [own[0], ...codes.slice(1)];
      }
    }
    const pagesSpanned = [...new Set(block.lines.filter((l) => l.left.length > 0 || l.middle !== "").map((l) => l.page))];
    if (pagesSpanned.length > 1) notes.push(`continues on p. ${pagesSpanned.slice(1).join(", ")}`);
    const { main, extended } = streamsOf(block);
    const mainReading = readStream(main, null);
    const mainClauses = mainReading.requirements?.split(";") ?? null;
    const mainAps = aps(block.figures[0]);
    const row = (rowName: string, code: string | null, reading: Reading, figure: { min_aps: number | null; note: string | null }, extra: string[]) =>
      rows.push({
        name_as_written: rowName,
        code,
        intake_year: INTAKE,
        min_aps: figure.min_aps,
        requirements: reading.requirements,
        page: block.page,
        line: null,
        read_by: "script",
        note: [figure.note, ...notes, ...extra, ...reading.notes].filter(Boolean).join("; ") || null,
      });
    if (!extended) {
      if (block.figures.length !== 1) throw new Error(`wsu-brochure-2026: ${cleanName}: ${block.figures.length} APS figures and one stream`);
      row(cleanName, codes[0] ?? null, mainReading, mainAps, codes.length > 1 ? [`codes ${codes.join(", ")}`] : []);
    } else {
      if (block.figures.length !== 2) throw new Error(`wsu-brochure-2026: ${cleanName}: ${block.figures.length} APS figures and two streams`);
      const mainCode = codes[0] ?? null;
      const extendedCode = codes.length === 2 ? codes[1] : codes.find((c) => mainCode && Number(c.slice(1)) === Number(mainCode.slice(1)) + 1);
      const rest = codes.filter((c) => c !== mainCode && c !== extendedCode);
      const shared = rest.length > 0 ? [`one rule for the programmes ${rest.join(", ")}`] : [];
      row(`${cleanName} (main stream)`, mainCode, mainReading, mainAps, shared);
      row(`${cleanName} (extended stream)`, extendedCode ?? null, readStream(extended, mainClauses), aps(block.figures[1]), shared);
    }
  }
  return rows;
}

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z ]/g, " ")
    .split(/\s+/)
    .filter(Boolean);

/** The faculty table's name and the requirement page's name of one programme (the pages abbreviate differently). */
function sameName(a: string, b: string): boolean {
  const [x, y] = [words(a).join(" "), words(b).join(" ")];
  return x === y || x.startsWith(y) || y.startsWith(x);
}

export const document: OfficialDocument = {
  id: "wsu-brochure-2026",
  university_slug: "walter-sisulu-university",
  witness_id: "wsu-brochure-2026",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/wsu_2026.pdf",
  sha256: "35e49b8619d17b256daf410f3c93726e18c16a91c11bd2f4756e96b79ce4aedc",
  format: "pdf",
  intake_year: INTAKE,
  extract,
};
