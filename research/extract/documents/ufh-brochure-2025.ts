// University of Fort Hare, "Study at the University of Fort Hare 2025": a two-page brochure of faculty admission
// tables (page 1: Education, Management and Commerce, Law, Health Sciences; page 2: Science and Agriculture in
// two tables side by side, Social Science and Humanities in two). Every table has the same six columns:
// Programme Name, Prog. Code (ITS), SAQA ID, Subject Requirements, Min. Level of Achievement, Min. APS Score; a
// programme's subject cells are stacked ("English - Home language OR / English - First additional language",
// "Mathematics OR / Mathematical Literacy", "Other Subjects (4)", "Life Orientation") with the level of each
// beside it ("4 (50-59%)", "4X4 (50%-59%)", "1X3 (40%-49%) / 3X4 (50%-59%)").
// pdftotext -layout puts the tables of a page side by side on the same lines, so each table is read inside its
// own rectangle (lines and character columns of the layout text): its text split into chunks, each chunk given
// to the column its first character falls in. The subject chunks are joined into requirement items (a chunk
// that continues the previous one: it starts in lower case or with "OR", or the previous ends with "OR"), each
// programme starting at its "English - Home language OR" item. Each level is given to the item printed on or
// above its line; in the Law table, whose cells pdftotext shifts a few lines up or down, the levels are given
// to the items in order instead (each item takes as many levels as it names subjects).
import type { ExtractedRow, OfficialDocument } from "../document.ts";

type Range = [from: number, to: number];
type Table = {
  faculty: string;
  page: number;
  firstLine: number;
  lastLine: number;
  name: Range;
  code: Range;
  saqa: Range;
  subjects: Range;
  levels: Range;
  aps: Range;
  /** lines: a level belongs to the item on or above its line; order: the levels are taken in order. */
  pairing: "lines" | "order";
  notes?: string[];
};

// Line and character ranges read off the layout text (pdftotext -layout of the 2025 brochure).
const TABLES: Table[] = [
  {
    faculty: "Faculty of Education",
    page: 1,
    firstLine: 4,
    lastLine: 77,
    name: [0, 17],
    code: [17, 28],
    saqa: [28, 35],
    subjects: [35, 82],
    levels: [82, 96],
    aps: [96, 115],
    pairing: "lines",
  },
  {
    faculty: "Faculty of Management and Commerce",
    page: 1,
    firstLine: 4,
    lastLine: 63,
    name: [175, 195],
    code: [195, 208],
    saqa: [208, 215],
    subjects: [215, 258],
    levels: [258, 275],
    aps: [275, 300],
    pairing: "lines",
    notes: ["faculty: for all degrees, Life Orientation (LO) will be capped at level 4 for calculating APS"],
  },
  {
    faculty: "Faculty of Law",
    page: 1,
    firstLine: 101,
    lastLine: 151,
    name: [0, 22],
    code: [22, 33],
    saqa: [33, 41],
    subjects: [41, 82],
    levels: [82, 96],
    aps: [96, 115],
    pairing: "order",
  },
  {
    faculty: "Faculty of Health Sciences",
    page: 1,
    firstLine: 105,
    lastLine: 156,
    name: [175, 193],
    code: [193, 205],
    saqa: [205, 218],
    subjects: [218, 257],
    levels: [257, 274],
    aps: [274, 300],
    pairing: "lines",
  },
  {
    faculty: "Faculty of Science and Agriculture",
    page: 2,
    firstLine: 10,
    lastLine: 134,
    name: [0, 15],
    code: [15, 26],
    saqa: [26, 33],
    subjects: [33, 79],
    levels: [79, 101],
    aps: [101, 111],
    pairing: "lines",
  },
  {
    faculty: "Faculty of Science and Agriculture",
    page: 2,
    firstLine: 4,
    lastLine: 74,
    name: [111, 124],
    code: [124, 135],
    saqa: [135, 142],
    subjects: [142, 192],
    levels: [192, 214],
    aps: [214, 225],
    pairing: "lines",
  },
  {
    faculty: "Faculty of Social Science and Humanities",
    page: 2,
    firstLine: 120,
    lastLine: 134,
    name: [111, 128],
    code: [128, 139],
    saqa: [139, 146],
    subjects: [146, 194],
    levels: [194, 213],
    aps: [213, 225],
    pairing: "lines",
  },
  {
    faculty: "Faculty of Social Science and Humanities",
    page: 2,
    firstLine: 4,
    lastLine: 87,
    name: [227, 242],
    code: [242, 255],
    saqa: [255, 263],
    subjects: [263, 310],
    levels: [310, 328],
    aps: [328, 345],
    pairing: "lines",
  },
];

type Chunk = { line: number; x: number; text: string };

/** The text of a line in chunks: runs separated by two or more spaces, and a code or SAQA id split from words it touches. */
function chunksOf(line: string, lineNumber: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (const run of line.matchAll(/\S+(?: \S+)*/g)) {
    // "Bachelor of Fine 30100", "112523 English - Home language OR": one space between two columns
    const parts = run[0].split(/(?<=[A-Za-z]) (?=\d{5,6}$)|(?<=^\d{3,6}) (?=[A-Z])/);
    let x = run.index;
    for (const part of parts) {
      const at = line.indexOf(part, x);
      chunks.push({ line: lineNumber, x: at, text: part });
      x = at + part.length;
    }
  }
  return chunks;
}

const HEADER = /^(?:Programme|Name\*?|Prog\.|Code \(ITS\)|SAQA ID|Subject Requirements|Min\. Level of|Achievement|Min\.? APS|Score)$/;

type Cells = { names: Chunk[]; codes: Chunk[]; subjects: Chunk[]; levels: Chunk[]; aps: Chunk[] };

function cellsOf(table: Table, page: string): Cells {
  const lines = page.split("\n");
  const cells: Cells = { names: [], codes: [], subjects: [], levels: [], aps: [] };
  const inside = (x: number, [from, to]: Range) => x >= from && x < to;
  for (let i = table.firstLine - 1; i < Math.min(table.lastLine, lines.length); i++) {
    for (const chunk of chunksOf(lines[i] ?? "", i + 1)) {
      if (HEADER.test(chunk.text)) continue;
      if (inside(chunk.x, table.name)) cells.names.push(chunk);
      else if (inside(chunk.x, table.code)) cells.codes.push(chunk);
      else if (inside(chunk.x, table.saqa)) continue;
      else if (inside(chunk.x, table.subjects)) cells.subjects.push(chunk);
      else if (inside(chunk.x, table.levels)) cells.levels.push(chunk);
      else if (inside(chunk.x, table.aps)) cells.aps.push(chunk);
    }
  }
  return cells;
}

// ---- levels ----

type Level = { line: number; text: string };
type Count = { count: number; level: number };

/** The level cells: a chunk that does not start with a digit continues the one before ("3 (40-49%) in one / and 4 (50%-59%) in / the other"). */
function levelsOf(chunks: Chunk[]): Level[] {
  const levels: Level[] = [];
  for (const c of chunks) {
    const last = levels.at(-1);
    if (last && !/^\d/.test(c.text)) last.text += ` ${c.text}`;
    else levels.push({ line: c.line, text: c.text });
  }
  return levels;
}

const FLOOR = [0, 0, 30, 40, 50, 60, 70, 80];

/** "4 (50-59%)", "2X4 (50%-59%)", "5 (60-69%) OR": how many subjects at which level; checks the band against the level. */
function countOf(text: string): Count {
  const m = /^(?:(\d)X)?([1-7]) \((\d\d)%? ?[-–] ?\d\d%\)(?: (?:OR|or))?$/.exec(text);
  if (!m) throw new Error(`ufh-brochure-2025: level "${text}" is not read`);
  const level = Number(m[2]);
  if (FLOOR[level] !== Number(m[3])) throw new Error(`ufh-brochure-2025: level "${text}": the band does not start at level ${level}'s floor`);
  return { count: Number(m[1] ?? 1), level };
}

const ONE_AND_OTHER = /^([1-7]) \(\d\d-\d\d%\) in one and ([1-7]) \(\d\d%-\d\d%\) in the other$/;

// ---- subjects ----

const ENGLISH = ["english-home-language", "english-first-additional-language"];
const SUBJECTS: [RegExp, string[], string?][] = [
  [/^English - Home language OR English - First additional language$/, ENGLISH],
  [/^Technical Mathematics(?: \(TM\))?$/, ["technical-mathematics"]],
  [/^Mathematic(?:s|al)? Literacy(?: \(ML\))?$/i, ["mathematical-literacy"]],
  [/^Mathematics$/, ["mathematics"]],
  [/^Physical Sciences?$/, ["physical-sciences"]],
  [/^Life Sciences?$/, ["life-sciences"]],
  [/^Geography$/, ["geography"]],
  [/^History$/, ["history"]],
  [/^Agricultural Science$/, ["agricultural-sciences"]],
  [/^Agriculture$/, ["agricultural-sciences"], "Agriculture read as Agricultural Sciences"],
  [/^(?:Information Technology|Info Tech)$/, ["information-technology"]],
  [/^Computer science$/, ["information-technology"], "Computer science read as Information Technology"],
  [/^Accounting$/, ["accounting"]],
  [/^Economics$/, ["economics"]],
  [/^Business management$/, ["business-studies"], "Business management read as Business Studies"],
  [/^Life Orientation$/i, ["life-orientation"]],
  [
    /^isiXhosa – Home or First additional language OR Afrikaans - Home or First additional language$/,
    ["isixhosa-home-language", "isixhosa-first-additional-language", "afrikaans-home-language", "afrikaans-first-additional-language"],
  ],
];

/** The NSC subjects a printed name stands for. */
function subjectsNamed(name: string, notes: string[]): string[] {
  for (const [pattern, slugs, note] of SUBJECTS) {
    if (pattern.test(name)) {
      if (note && !notes.includes(note)) notes.push(note);
      return slugs;
    }
  }
  throw new Error(`ufh-brochure-2025: subject "${name}" is not known`);
}

type Item = { line: number; text: string; levels: Level[] };

/** Joins the subject chunks into the items of the table, in order. */
function itemsOf(chunks: Chunk[]): Item[] {
  const items: Item[] = [];
  for (const c of chunks) {
    const last = items.at(-1);
    const starts = /^(?:English - Home language|Other Subjects|Life Orientation|Another Language|An achievement rating|isiXhosa)/i.test(c.text);
    const continues =
      last !== undefined &&
      !starts &&
      (/^(?:[a-z(]|OR\b|\d)/.test(c.text) ||
        /\b(?:OR|or|AND)$/.test(last.text) ||
        /^English - Home language OR$/.test(last.text) ||
        // "Mathematics / Mathematic Literacy": one cell, two levels, no OR printed
        (/^Mathematics$/.test(last.text) && /^Mathematic(?:al|s)? Literacy/i.test(c.text)));
    if (last && continues) last.text += ` ${c.text}`;
    else items.push({ line: c.line, text: c.text, levels: [] });
  }
  return items;
}

/** How many level cells an item takes when the levels are taken in order. */
function levelsWanted(item: Item, next: Level[]): number {
  const other = /^Other Subjects \((\d)\)$/.exec(item.text);
  if (other) {
    let taken = 0;
    let n = 0;
    while (taken < Number(other[1]) && n < next.length) taken += countOf(next[n++]!.text).count;
    return n;
  }
  if (/^Mathematic/.test(item.text) && !/ AND /.test(item.text)) return item.text.split(/ (?:OR|or) | (?=Mathematic(?:al|s)? Literacy)/).length;
  return 1;
}

const NUMBER: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

/** Where an item's alternative routes stand among the clauses. */
const ROUTE = "<route>";

type Reading = { clauses: string[]; routes: string[][] | null; notes: string[]; problems: string[] };

/** What one item states, with its levels. */
function readItem(item: Item, reading: Reading, nextItem: Item | undefined): void {
  const texts = item.levels.map((l) => l.text);
  const { notes, problems } = reading;
  const repeat = (clause: string, n: number) => Array.from({ length: n }, () => clause);
  const other = /^Other Subjects \((\d)\)$/.exec(item.text);
  if (other) {
    const counts = texts.map(countOf);
    const total = counts.reduce((s, c) => s + c.count, 0);
    if (total !== Number(other[1])) problems.push(`${item.text}: levels ${texts.join(", ") || "(none)"}`);
    // the higher levels first: "2X4, 2X5" is two subjects at 5 and two at 4
    for (const c of [...counts].sort((a, b) => b.level - a.level)) reading.clauses.push(...repeat(`@other-subject:${c.level}`, c.count));
    return;
  }
  const rating = /^An achievement rating of ([1-7]) \(.*\) or higher in (one|two|three|four|five) 20-credit NSC subjects?;$/.exec(item.text);
  if (rating) {
    const [c] = texts.map(countOf);
    if (texts.length !== 1 || !c || c.level !== Number(rating[1]) || c.count !== NUMBER[rating[2]!]) problems.push(`${item.text}: ${texts.join(", ")}`);
    else reading.clauses.push(...repeat(`@other-subject:${c.level}`, c.count));
    return;
  }
  if (/^Another Language$/.test(item.text)) {
    const [c] = texts.map(countOf);
    if (texts.length !== 1 || !c) problems.push(`${item.text}: ${texts.join(", ")}`);
    else reading.clauses.push(...repeat(`@other-language:${c.level}`, c.count));
    return;
  }
  const both = /^Mathematics AND Physical Science \(Level 3 in either Maths or Physics, but the 2nd one must be at Level 4\)$/.exec(item.text);
  if (both) {
    const m = texts.length === 1 ? ONE_AND_OTHER.exec(texts[0]!) : null;
    if (!m) return void problems.push(`${item.text}: ${texts.join(", ")}`);
    const [low, high] = [m[1], m[2]];
    reading.routes = [
      [`mathematics:${low}`, `physical-sciences:${high}`],
      [`mathematics:${high}`, `physical-sciences:${low}`],
    ];
    reading.clauses.push(ROUTE);
    notes.push(`Mathematics AND Physical Science: ${texts[0]} (Level 3 in either Maths or Physics, but the 2nd one must be at Level 4): two routes`);
    return;
  }
  if (/^Mathematic/.test(item.text)) {
    // "Mathematics OR Mathematical Literacy (ML) OR Technical Mathematics (TM)": one level each, in order
    const names = item.text.replace(/ (?:OR|or)$/, "").split(/ (?:OR|or) | (?=Mathematic(?:al|s)? Literacy)/);
    const counts = texts.map(countOf);
    if (names.length !== counts.length || counts.some((c) => c.count !== 1)) return void problems.push(`${item.text}: ${texts.join(", ")}`);
    reading.clauses.push(names.map((n, i) => `${subjectsNamed(n, notes)[0]}:${counts[i]!.level}`).join("|"));
    return;
  }
  // one subject, or alternatives ("Life Sciences OR Geography OR Agriculture OR Information Technology"); "Any two of
  // the following: ..." with "2X4": the clause twice
  const any = /^Any two of the following: (.*)$/.exec(item.text);
  const whole = any ? any[1]! : item.text;
  const names = SUBJECTS.some(([pattern]) => pattern.test(whole)) ? [whole] : whole.split(/ OR /);
  const slugs = names.flatMap((n) => subjectsNamed(n, notes));
  const counts = texts.map(countOf);
  if (counts.length === 0 && slugs[0] === ENGLISH[0]) {
    // the English cell of one row (BSc Agriculture in Crops) prints no level; the faculty's rule above its table
    // ("The 4 NSC subjects required at level 4 must satisfy the following Faculty-specific entry requirements")
    notes.push("the English level cell is blank in this row; read as 4 (the faculty's rule: the NSC subjects required at level 4)");
    counts.push({ count: 1, level: 4 });
  }
  const [c] = counts;
  if (counts.length !== 1 || !c) return void problems.push(`${item.text}: ${texts.join(", ") || "(no level)"}`);
  let times = c.count;
  if (any && times !== 2) problems.push(`${item.text}: ${texts.join(", ")}`);
  const misprint = !any && times > 1 && nextItem && /^Other Subjects \(\d\)$/.test(nextItem.text) && nextItem.levels.length === 0;
  if (misprint) {
    // BSc Agriculture in Crops (Extended): "3X4 (50%-59%)" beside the Life Sciences OR Geography OR ... cell, and
    // nothing beside "Other Subjects (2)": three subjects at 4, one of them from the list (as in every other row)
    notes.push(`the row prints ${texts[0]} beside "${item.text}" and no level beside "${nextItem.text}": read as one of these at ${c.level} and ${times - 1} other subjects at ${c.level}`);
    nextItem.levels.push({ line: item.line, text: `${times - 1}X${c.level} (${FLOOR[c.level]}%-${FLOOR[c.level]! + 9}%)` });
    times = 1;
  }
  const clause = slugs.map((s) => `${s}:${c.level}`).join("|");
  reading.clauses.push(...repeat(clause, times));
}

// ---- programmes ----

type Programme = { name: string; code: string; aps: string; items: Item[] };

/** The programmes of a table: names, codes, APS cells and items, each in order. */
function programmesOf(table: Table, cells: Cells): Programme[] {
  const names = cells.names
    .map((c) => c.text)
    .join(" ")
    .split(/ (?=(?:Bachelor|Diploma)\b)/)
    .map((n) => n.trim());
  const codes = cells.codes.map((c) => c.text);
  const aps = cells.aps
    .map((c) => c.text)
    .join(" ")
    .split(/ (?=\d\d\b(?! with))/);
  const items = itemsOf(cells.subjects);
  const levels = levelsOf(cells.levels);
  if (table.pairing === "lines") {
    for (const level of levels) {
      const item = items.filter((i) => i.line <= level.line).at(-1);
      if (!item) throw new Error(`ufh-brochure-2025: ${table.faculty}: level "${level.text}" on line ${level.line} above every item`);
      item.levels.push(level);
    }
  } else {
    let n = 0;
    for (const item of items) {
      const wanted = levelsWanted(item, levels.slice(n));
      item.levels.push(...levels.slice(n, n + wanted));
      n += wanted;
    }
    if (n !== levels.length) throw new Error(`ufh-brochure-2025: ${table.faculty}: ${levels.length - n} levels left over`);
  }
  const programmes: Programme[] = [];
  for (const item of items) {
    if (/^English - Home language/.test(item.text)) programmes.push({ name: "", code: "", aps: "", items: [] });
    const programme = programmes.at(-1);
    if (!programme) throw new Error(`ufh-brochure-2025: ${table.faculty}: "${item.text}" before the first programme`);
    programme.items.push(item);
  }
  if (names.length !== programmes.length || codes.length !== programmes.length || aps.length !== programmes.length)
    throw new Error(`ufh-brochure-2025: ${table.faculty} p.${table.page}: ${programmes.length} programmes, ${names.length} names (${names.join(" / ")}), ${codes.length} codes, ${aps.length} APS cells (${aps.join(" / ")})`);
  programmes.forEach((p, i) => Object.assign(p, { name: names[i], code: codes[i], aps: aps[i] }));
  return programmes;
}

function rowOf(table: Table, programme: Programme): ExtractedRow {
  const reading: Reading = { clauses: [], routes: null, notes: [], problems: [] };
  programme.items.forEach((item, i) => readItem(item, reading, programme.items[i + 1]));
  const notes = [table.faculty];
  const aps = /^(\d\d)(?: \((\d\d) with (ML|ML or TM|Maths)\))?$/.exec(programme.aps);
  if (!aps) throw new Error(`ufh-brochure-2025: ${programme.name}: APS "${programme.aps}" is not read`);
  let minAps = Number(aps[1]);
  if (aps[3] === "Maths") {
    // "28 (27 with Maths)": 27 with Mathematics, 28 with Mathematical Literacy
    minAps = Number(aps[2]);
    notes.push(`Min. APS "${programme.aps}": ${aps[2]} with Mathematics, Mathematical Literacy: APS ${aps[1]}`);
  } else if (aps[3]) notes.push(`${aps[3] === "ML" ? "Mathematical Literacy" : "Mathematical Literacy or Technical Mathematics"}: APS ${aps[2]}`);
  const stars = /\*+/.exec(programme.name)?.[0];
  const name = programme.name.replace(/\*+/g, "");
  if (stars) notes.push(`the name is marked ${stars} (the brochure prints no footnote for it)`);
  notes.push(...reading.notes, ...(table.notes ?? []));
  let requirements: string | null = null;
  if (reading.problems.length > 0) notes.push(`not read, so no requirements recorded: ${reading.problems.join("; ")}`);
  else if (reading.routes) requirements = reading.routes.map((route) => reading.clauses.flatMap((c) => (c === ROUTE ? route : [c])).join(";")).join("||");
  else requirements = reading.clauses.join(";");
  return {
    name_as_written: name,
    code: programme.code,
    intake_year: 2025,
    min_aps: minAps,
    requirements,
    page: table.page,
    line: null,
    read_by: "script",
    note: notes.join("; "),
  };
}

export const document: OfficialDocument = {
  id: "ufh-brochure-2025",
  university_slug: "university-of-fort-hare",
  witness_id: "ufh-brochure-2025",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/ufh_2025.pdf",
  sha256: "c52682a680a8f1807ecffe01755208fae7bc459eefeedf34fa74318052e68c0a",
  format: "pdf",
  intake_year: 2025,
  extract(pages) {
    return TABLES.flatMap((table) => {
      const page = pages[table.page - 1];
      return page === undefined ? [] : programmesOf(table, cellsOf(table, page)).map((p) => rowOf(table, p));
    });
  },
};
