// University of Pretoria, "Undergraduate prospectus 2026: Applicants with a National Senior Certificate (NSC) or
// Independent Examination Board (IEB) Certificate" (20 pages, published December 2024). Its programme tables
// (PDF pages 7-19) give, per programme, the achievement levels of English (HL or FAL), Mathematics, Physical
// Sciences or Music, and the APS, headed "Minimum requirements for NSC/IEB for 2026".
//
// Layout (pdftotext -layout): each page is two text columns separated by a gutter of blank characters. In a
// column, a table starts with its header ("Minimum requirements ..." down to the last "Language" of the English
// column heading); the header's words give the x positions of the level columns. Each programme is a name block
// at the column's left margin (one or more lines, ending with "[N years]"), with the cells to its right; a cell
// may run over several lines above or below the name (multi-line cells such as "Mathematics 3 or Mathematical
// Literacy 4" or the Music cell). Two programmes printed in one cell (e.g. Genetics / Human Genetics) are two
// name blocks with one "[N years]" line after the second. Descriptions ("Suggested second-choice ...",
// "Careers: ...") follow the name block at the left margin. Page 18 ends with a full-width table of the
// extended (four-/five-year) BSc programmes, whose requirements are percentages.
import type { ExtractedRow, OfficialDocument } from "../document.ts";

const INTAKE = 2026;

type Seg = { x: number; text: string };
type Line = { name: Seg | null; values: Seg[]; header: boolean };
type Anchor = { subject: "english" | "mathematics" | "physical" | "music" | "aps"; centre: number };
type Table = { anchors: Anchor[] };

const NAME_START = /^(Bachelor|Higher Certificate|Diploma)\b/;
const YEARS = /^\[\d+ years?\]$/;
/** A name line is at most this wide (the widest: "Bachelor of Political Science specialising in Political"). */
const NAME_WIDTH = 60;
const DESCRIPTION = /^(Suggested|Proposed|Careers?:|Selection|For advice|This is|Note|To retain|Will only|Candidates|Queries|Applicants|If |\*)/;

/** The text pieces of a line separated by three or more spaces, with their x positions. */
function segments(text: string, offset: number): Seg[] {
  return [...text.matchAll(/\S+(?: {1,2}\S+)*/g)].map((m) => ({ x: (m.index ?? 0) + offset, text: m[0] }));
}

/** The x where the page's two columns meet: the middle of the widest run of blank characters in x 75-111. */
function gutter(lines: readonly string[]): number {
  let best: [number, number] = [0, -1];
  let start: number | null = null;
  for (let x = 75; x <= 112; x++) {
    const blank = x < 112 && lines.every((l) => (l[x] ?? " ") === " ");
    if (blank && start === null) start = x;
    if (!blank && start !== null) {
      if (x - start > best[1] - best[0] + 1) best = [start, x - 1];
      start = null;
    }
  }
  if (best[1] < 0) throw new Error("up-prospectus-2026: no gutter between the page's columns");
  return best[0];
}

/** A column's lines: the text at its left margin (name or description) apart from the cells to its right. */
function columnLines(texts: readonly string[], from: number, to: number): Line[] {
  const segs = texts.map((t) => segments(t.slice(from, to), from));
  const margin = Math.min(...segs.flatMap((s) => s.map((g) => g.x)));
  return segs.map((s) => {
    const first = s[0];
    const name = first && first.x <= margin + 6 ? first : null;
    return { name, values: name ? s.slice(1) : s, header: false };
  });
}

/** Marks the header lines of each table in the column and returns the tables by the line they start at. */
function findTables(lines: Line[]): Map<number, Table> {
  const tables = new Map<number, Table>();
  for (let i = 0; i < lines.length; i++) {
    const all = (l: Line) => [...(l.name ? [l.name] : []), ...l.values];
    if (!all(lines[i] as Line).some((s) => s.text === "Minimum" || s.text.startsWith("Minimum requirements"))) continue;
    let end = -1;
    for (let j = i; j < Math.min(lines.length, i + 16); j++) {
      const line = lines[j] as Line;
      if (line.name && NAME_START.test(line.name.text)) break;
      if (line.values.some((s) => s.text === "Language")) end = j;
    }
    if (end < 0) throw new Error(`up-prospectus-2026: a table header at line ${i + 1} without its "Language" line`);
    const anchors: Anchor[] = [];
    const add = (subject: Anchor["subject"], s: Seg) => {
      if (anchors.some((a) => a.subject === subject)) return;
      anchors.push({ subject, centre: s.x + s.text.length / 2 });
    };
    for (let j = i; j <= end; j++) {
      const line = lines[j] as Line;
      line.header = true;
      for (const s of line.values) {
        if (/^English (Home|First)/.test(s.text)) add("english", s);
        else if (/^(or )?English First/.test(s.text)) add("english", s);
        else if (s.text === "Mathematics") add("mathematics", s);
        else if (/^Physical( Sciences)?$/.test(s.text)) add("physical", s);
        else if (s.text === "Music") add("music", s);
        else if (s.text === "APS") add("aps", s);
      }
    }
    if (!anchors.some((a) => a.subject === "aps") || !anchors.some((a) => a.subject === "english")) throw new Error(`up-prospectus-2026: the table header at line ${i + 1} has no English or APS column`);
    tables.set(i, { anchors: anchors.sort((a, b) => a.centre - b.centre) });
  }
  return tables;
}

type Group = { names: string[][]; years: string; first: number; last: number; table: Table };

/** The programmes' name blocks of a column, grouped by table cell (two names in one cell share a group). */
function nameGroups(lines: Line[], tables: Map<number, Table>, carried: Table | null): { groups: Group[]; table: Table | null } {
  const groups: Group[] = [];
  let table = carried;
  let i = 0;
  while (i < lines.length) {
    const t = tables.get(i);
    if (t) table = t;
    const line = lines[i] as Line;
    if (!table || line.header || !line.name || !NAME_START.test(line.name.text) || line.name.text.length > NAME_WIDTH) {
      i++;
      continue;
    }
    const names: string[][] = [[line.name.text]];
    let j = i + 1;
    let years: string | null = null;
    for (; j < lines.length && j < i + 14; j++) {
      const next = lines[j] as Line;
      if (next.header) break;
      if (!next.name) continue;
      const text = next.name.text;
      if (YEARS.test(text)) {
        years = text;
        break;
      }
      if (NAME_START.test(text)) names.push([text]);
      else if (!DESCRIPTION.test(text) && text.length <= NAME_WIDTH && (names.at(-1) as string[]).length < 6) (names.at(-1) as string[]).push(text);
      else break;
    }
    if (years) groups.push({ names, years, first: i, last: j, table });
    i = years ? j + 1 : j;
  }
  return { groups, table };
}

/** The cell lines of each group: its own lines, and the lines without left-margin text just above and below
 * (a line between two programmes with no text at the margin between them goes to the nearer one). */
function cellLines(lines: readonly Line[], groups: readonly Group[], page: number): number[][] {
  const owner = new Map<number, { group: number; distance: number }>();
  const claim = (line: number, group: number, distance: number) => {
    const other = owner.get(line);
    if (other && other.distance === distance) throw new Error(`up-prospectus-2026: page ${page}, line ${line + 1} lies as near the cells of two programmes`);
    if (!other || distance < other.distance) owner.set(line, { group, distance });
  };
  groups.forEach((g, n) => {
    for (let k = g.first; k <= g.last; k++) claim(k, n, 0);
    for (let k = g.first - 1; k >= 0 && !lines[k]?.name && !lines[k]?.header; k--) claim(k, n, g.first - k);
    for (let k = g.last + 1; k < lines.length && !lines[k]?.name && !lines[k]?.header; k++) claim(k, n, k - g.last);
  });
  const byGroup: number[][] = groups.map(() => []);
  for (const [line, { group }] of [...owner].sort((a, b) => a[0] - b[0])) byGroup[group]?.push(line);
  return byGroup;
}

/** The words of a table heading repeated beside a programme (Veterinary Nursing) are not part of its cells. */
const HEADING_WORDS = /\b(English Home Language or English First Additional Language|English Home|Language or|English First|Additional|Language)\b/g;

const clean = (text: string) => text.replace(/\s+/g, " ").trim();

type Cells = Partial<Record<Anchor["subject"], string>>;

function cellsOf(lines: readonly Line[], indexes: readonly number[], table: Table): Cells {
  const parts: Partial<Record<Anchor["subject"], string[]>> = {};
  for (const k of indexes) {
    for (const s of (lines[k] as Line).values) {
      const centre = s.x + s.text.length / 2;
      const nearest = table.anchors.reduce((a, b) => (Math.abs(b.centre - centre) < Math.abs(a.centre - centre) ? b : a));
      (parts[nearest.subject] ??= []).push(s.text);
    }
  }
  const cells: Cells = {};
  for (const [subject, texts] of Object.entries(parts)) {
    const text = clean(texts.join(" ").replace(HEADING_WORDS, " "));
    if (text) cells[subject as Anchor["subject"]] = text;
  }
  return cells;
}

/** A cell's level ("5") or percentage ("65%") as a compact item. */
const level = (slug: string, value: string) => `${slug}:${value}`;
const english = (value: string) => `${level("english-home-language", value)}|${level("english-first-additional-language", value)}`;
const VALUE = /^(\d|\d{2}%)$/;

type Read = { requirements: string | null; notes: string[] };

/** Turns a programme's cells into the compact requirements, with notes for what the cells say beyond them. */
function readCells(cells: Cells, where: string): Read {
  const clauses: string[] = [];
  const notes: string[] = [];
  let expressible = true;
  const e = cells.english;
  if (!e || !VALUE.test(e)) throw new Error(`up-prospectus-2026: ${where}: English cell "${e ?? ""}"`);
  clauses.push(english(e));
  const m = cells.mathematics?.replace(/^Mathematics (?=\d$)/, "");
  if (m !== undefined) {
    const literacy = /^Mathematics (\d) or Mathematical Literacy (\d)$/.exec(m);
    if (VALUE.test(m)) clauses.push(level("mathematics", m));
    else if (literacy) clauses.push(`mathematics:${literacy[1]}|mathematical-literacy:${literacy[2]}`);
    else if (m === "-" || m === "N/A") notes.push(`Mathematics: "${m}" (no Mathematics requirement)`);
    else throw new Error(`up-prospectus-2026: ${where}: Mathematics cell "${m}"`);
  }
  const p = cells.physical?.replace(/^Physical Sciences (?=\d$|or )/, "");
  if (p !== undefined) {
    const or = /^or (Accounting|Life Sciences) (\d)$/.exec(p);
    const notPhysical = /^Life Sciences \(not Physical Sciences\) (\d)$/.exec(p);
    if (VALUE.test(p)) clauses.push(level("physical-sciences", p));
    else if (or) {
      clauses.push(`physical-sciences:${or[2]}|${or[1] === "Accounting" ? "accounting" : "life-sciences"}:${or[2]}`);
      notes.push(`Physical Sciences column: "Physical Sciences ${p}"`);
    } else if (notPhysical) {
      clauses.push(`life-sciences:${notPhysical[1]}`);
      notes.push(`Physical Sciences column: "${p}"`);
    } else if (p === "-" || p === "N/A") notes.push(`Physical Sciences: "${p}" (no Physical Sciences requirement)`);
    else throw new Error(`up-prospectus-2026: ${where}: Physical Sciences cell "${p}"`);
  }
  if (cells.music !== undefined) {
    // "4 (50-59%) or Grade VII Practical and Grade V Theory (Unisa/Royal Schools/Trinity) or a comparable standard
    // and Practical audition and theoretical test passed with 60%": a route outside the NSC subjects.
    expressible = false;
    notes.push(`English Home Language or English First Additional Language: ${e}`);
    notes.push(`Music cell: "${cells.music.replace(/\)or /, ") or ")}" (not expressible: a music examination instead of NSC Music, and an audition)`);
  }
  return { requirements: expressible ? clauses.join(";") : null, notes };
}

/** Sentences of a programme's description that state an admission rule (selection, retaining admission, tests). */
const RULE = /successful applicants|choice applications|selection|retain admission|first study choice|online programme|audition|portfolio|competency test|achievement level|only \d+ students|APS of/i;

/** Joins two lines of a paragraph: a word broken at a hyphen is joined without a space ("second-" "choice"). */
const join = (a: string, b: string) => (/\w-$/.test(a) ? `${a}${b}` : `${a} ${b}`);

const BULLET = /^[\u0083\u2022\uf0b7\ufffd]\s*/;

/** The admission rules in a programme's description: its sentences that RULE names; a list under a heading that
 * ends with ":" stays with its heading. */
function descriptionNotes(lines: readonly Line[], from: number, to: number): string[] {
  const paragraphs: { text: string; items: string[] }[] = [];
  for (let k = from; k < to; k++) {
    const line = lines[k] as Line;
    if (line.header) break;
    if (!line.name) continue;
    const text = line.name.text;
    if (/^Careers?:/.test(text)) break;
    const last = paragraphs.at(-1);
    if (BULLET.test(text) && last && (last.items.length > 0 || last.text.endsWith(":"))) last.items.push(text.replace(BULLET, ""));
    else if (!last || DESCRIPTION.test(text) || BULLET.test(text)) paragraphs.push({ text: text.replace(BULLET, ""), items: [] });
    else if (last.items.length > 0) last.items[last.items.length - 1] = join(last.items.at(-1) ?? "", text);
    else last.text = join(last.text, text);
  }
  const tidy = clean;
  return paragraphs.flatMap((p) => {
    const sentences = tidy(p.text).split(/(?<=\.)\s+(?=[A-Z])/);
    if (p.items.length > 0) {
      const head = sentences.pop() ?? "";
      const list = p.items.map(tidy);
      const short = list.every((i) => i.length < 40);
      sentences.push(RULE.test(head) ? `${head} ${list.join(short ? ", " : "; ")}` : head);
    }
    return sentences.filter((s) => RULE.test(s) && !/^(Suggested|For advice|Proposed)/.test(s));
  });
}

/** The footnotes "* Possible name change to: ..." of a column, by their asterisks. */
function nameFootnotes(lines: readonly Line[]): Map<string, string> {
  const notes = new Map<string, string>();
  lines.forEach((line, k) => {
    const m = /^(\*+) (Possible name change to: .*)$/.exec(line.name?.text ?? "");
    if (!m?.[1] || !m[2]) return;
    const next = lines.slice(k + 1).find((l) => l.name || l.values.length > 0);
    const more = next?.name && !next.name.text.startsWith("*") && next.values.length === 0 ? ` ${next.name.text}` : "";
    notes.set(m[1], `${m[2]}${more}`);
  });
  return notes;
}

function rowsOfColumn(lines: Line[], page: number, carried: Table | null): { rows: ExtractedRow[]; table: Table | null } {
  const tables = findTables(lines);
  const { groups, table } = nameGroups(lines, tables, carried);
  const cellsByGroup = cellLines(lines, groups, page);
  const footnotes = nameFootnotes(lines);
  const rows: ExtractedRow[] = [];
  groups.forEach((g, n) => {
    const where = `page ${page}, ${g.names.map((x) => x.join(" ")).join(" / ")}`;
    const cells = cellsOf(lines, cellsByGroup[n] ?? [], g.table);
    // A programme named again where another faculty's table states it (BA Law and BCom Law in the Law table, with
    // whom to ask beside them): no APS, no level.
    if (cells.aps === undefined && !Object.values(cells).some((c) => VALUE.test(c))) return;
    if (!/^\d{2}$/.test(cells.aps ?? "")) throw new Error(`up-prospectus-2026: ${where}: APS cell "${cells.aps ?? ""}"`);
    const read = readCells(cells, where);
    const next = groups[n + 1]?.first ?? lines.length;
    const rules = descriptionNotes(lines, g.last + 1, Math.min(next, lines.length));
    for (const name of g.names) {
      const stars = name.map((x) => /(\*+)$/.exec(x)?.[1]).find(Boolean);
      const footnote = stars ? footnotes.get(stars) : undefined;
      if (stars && !footnote) throw new Error(`up-prospectus-2026: ${where}: no footnote ${stars}`);
      const shared = g.names.length > 1 ? [`printed in one table cell with ${g.names.filter((x) => x !== name).map((x) => x.join(" ")).join(", ")}`] : [];
      rows.push({
        name_as_written: `${clean(name.join(" "))} ${g.years}`,
        code: null,
        intake_year: INTAKE,
        min_aps: Number(cells.aps),
        requirements: read.requirements,
        page,
        line: null,
        read_by: "script",
        note: [...shared, ...(footnote ? [`footnote ${stars}: ${footnote}`] : []), ...read.notes, ...rules].join("; ") || null,
      });
    }
  });
  return { rows, table };
}

/** Page 18's full-width table of the extended programmes: "Bachelor of Science in:" and a bulleted list, or one name. */
function extendedRows(texts: readonly string[], page: number): ExtractedRow[] {
  const lines = columnLines(texts, 0, Number.POSITIVE_INFINITY);
  const tables = findTables(lines);
  const table = [...tables.values()][0];
  if (!table || tables.size !== 1) throw new Error("up-prospectus-2026: the extended programmes' table has no header");
  const rows: ExtractedRow[] = [];
  let k = 0;
  while (k < lines.length) {
    const line = lines[k] as Line;
    if (line.header || !line.name || !line.name.text.startsWith("Bachelor of Science in")) {
      k++;
      continue;
    }
    let end = k + 1;
    while (end < lines.length && (!lines[end]?.name || lines[end]?.name?.text.startsWith("�"))) end++;
    const indexes = Array.from({ length: end - k }, (_, d) => k + d);
    const cells = cellsOf(lines, indexes, table);
    const where = `page ${page}, ${line.name.text}`;
    if (!/^\d{2}$/.test(cells.aps ?? "")) throw new Error(`up-prospectus-2026: ${where}: APS cell "${cells.aps ?? ""}"`);
    const read = readCells(cells, where);
    const items = indexes.slice(1).flatMap((d) => (lines[d]?.name ? [(lines[d]?.name?.text ?? "").replace(/^�\s*/, "")] : []));
    const names = items.length > 0 ? items.map((item) => `${line.name?.text} ${item}`) : [line.name.text];
    for (const name of names) {
      const agriculture = / Agriculture in /.test(name);
      rows.push({
        name_as_written: `${name} (${agriculture ? "five-year" : "four-year"})`,
        code: null,
        intake_year: INTAKE,
        min_aps: Number(cells.aps),
        requirements: read.requirements,
        page,
        line: null,
        read_by: "script",
        note: [
          `extended programme: the table of "four-year Bachelor of Science and five-year Bachelor of Science in Agriculture programmes [with] slightly lower minimum admission requirements"; levels printed as percentages`,
          ...read.notes,
        ].join("; "),
      });
    }
    k = end;
  }
  return rows;
}

export function extract(pages: readonly string[]): ExtractedRow[] {
  const rows: ExtractedRow[] = [];
  let table: Table | null = null;
  pages.forEach((text, index) => {
    const page = index + 1;
    if (page < 7 || page > 19 || text.trim() === "") return;
    const all = text.split("\n");
    const cut = all.findIndex((l) => l.includes("The following four-year Bachelor of Science"));
    const columns = cut >= 0 ? all.slice(0, cut) : all;
    const split = gutter(columns);
    for (const [from, to] of [
      [0, split],
      [split, Number.POSITIVE_INFINITY],
    ] as const) {
      const column = rowsOfColumn(columnLines(columns, from, to), page, table);
      rows.push(...column.rows);
      table = column.table;
    }
    if (cut >= 0) rows.push(...extendedRows(all.slice(cut), page));
  });
  return rows;
}

export const document: OfficialDocument = {
  id: "up-prospectus-2026",
  university_slug: "university-of-pretoria",
  witness_id: "up-prospectus-2026",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/up_2026.pdf",
  sha256: "29b7a1cc024402ae87fad0b602630d84e2fc701281712c865bd9699b453e7822",
  format: "pdf",
  intake_year: INTAKE,
  extract,
};
