// University of Limpopo, "Undergraduate Prospectus 2026": two A2 poster pages of faculty tables (page 1:
// Humanities; page 2: Management and Law, Science and Agriculture, Health Sciences). Each table has a header
// of rotated column names (Years of Study, English, Mathematics, ..., APS) and, per programme, a title bar
// ("BCom (Economics) - Bachelor of Commerce in Economics") followed by a row of levels, one per column.
// pdftotext -layout puts the tables of a page side by side on the same lines, so each table is read inside
// its own rectangle (lines and character columns of the layout text), and each level is given to the column
// whose character range it falls in. Two tables whose levels pdftotext places off their columns (the
// Accountancy table on page 2, the Language and Communication Studies table on page 1) are read in order.
import type { ExtractedRow, OfficialDocument } from "../document.ts";

const either = (...slugs: string[]) => slugs;
const ENGLISH = either("english-home-language", "english-first-additional-language");
const lang = (name: string) => [`${name}-home-language`, `${name}-first-additional-language`];
const NORTHERN_LANGUAGES = [...lang("sepedi"), ...lang("tshivenda"), ...lang("xitsonga")];

/** What a column of a table asks for: the subjects any of which meets it, how many distinct ones. */
type Column =
  | { key: "years" | "aps" | "skip" }
  | { key: "subject"; subjects: string[]; times?: number; label: string; bandOnly?: boolean } // bandOnly: the cell may print only the band, "(50-59%)"
  | { key: "maths-or-literacy"; label: string } // "Mathematics or *Maths Literacy": a plain level is Mathematics, a starred one Mathematical Literacy
  | { key: "literacy"; label: string } // the "(Mathematical Literacy)" half of a split Mathematics OR Mathematical Literacy header
  | { key: "unexpressed"; label: string }; // a column the compact syntax cannot state
type Range = { from: number; to: number; column: Column };
type Table = { name: string; page: number; firstLine: number; lastLine: number; left: number; right: number; columns: Range[]; inOrder?: "accountancy" | "languages" };

const subject = (label: string, subjects: string[], times = 1): Column => ({ key: "subject", subjects, times, label });
const range = (from: number, to: number, column: Column): Range => ({ from, to, column });
const YEARS: Column = { key: "years" };
const APS: Column = { key: "aps" };

// Character ranges read off the layout text (pdftotext -layout of the 2026 poster): each header's x and the
// levels printed under it.
const TABLES: Table[] = [
  {
    name: "Faculty of Humanities, School of Education",
    page: 1,
    firstLine: 72,
    lastLine: 322,
    left: 455,
    right: 800,
    columns: [
      range(490, 510, YEARS),
      range(510, 550, subject("Life Orientation", ["life-orientation"])),
      range(550, 563, subject("English", ENGLISH)),
      range(563, 583, { key: "unexpressed", label: "First Language" }),
      range(583, 603, subject("Language (Sepedi; Tshivenda; Xitsonga; English)", [...NORTHERN_LANGUAGES, ...ENGLISH])),
      range(603, 623, { key: "maths-or-literacy", label: "Mathematics or *Maths Literacy" }),
      range(623, 648, subject("Physical Science or Life Science", ["physical-sciences", "life-sciences"])),
      range(648, 668, subject("Two (2) Subjects from Geography, History Sepedi, Tshivenda, and Xitsonga", ["geography", "history", ...NORTHERN_LANGUAGES], 2)),
      range(668, 688, subject("Two (2) subjects from Accounting, Economics and Business studies", ["accounting", "economics", "business-studies"], 2)),
      range(715, 730, APS),
    ],
  },
  {
    name: "Faculty of Humanities, School of Social Sciences",
    page: 1,
    firstLine: 370,
    lastLine: 560,
    left: 200,
    right: 455,
    columns: [
      range(270, 282, YEARS),
      range(282, 300, subject("English", ENGLISH)),
      range(300, 350, { ...subject("Additional Language", ["@other-language"]), bandOnly: true }),
      range(350, 390, { key: "maths-or-literacy", label: "Mathematics OR Mathematical Literacy" }),
      range(390, 405, subject("Three (3) *(Five(5)) Additional subjects", ["@other-subject"], 3)),
      range(405, 420, APS),
    ],
  },
  {
    name: "Faculty of Humanities, School of Languages and Communication Studies",
    page: 1,
    firstLine: 324,
    lastLine: 560,
    left: 455,
    right: 800,
    columns: [],
    inOrder: "languages",
  },
  { name: "Faculty of Management and Law, School of Accountancy", page: 2, firstLine: 1, lastLine: 170, left: 0, right: 300, columns: [], inOrder: "accountancy" },
  {
    name: "Faculty of Management and Law, School of Economics and Management",
    page: 2,
    firstLine: 171,
    lastLine: 488,
    left: 0,
    right: 300,
    columns: [
      range(110, 130, YEARS),
      range(130, 160, subject("English", ENGLISH)),
      range(160, 185, { key: "maths-or-literacy", label: "Mathematics OR" }),
      range(185, 210, { key: "literacy", label: "(Mathematical Literacy)" }),
      range(210, 245, subject("Economics", ["economics"])),
      range(245, 275, subject("Additional Subjects (each additional subject requires a subminimum of)", ["@other-subject"], 4)),
      range(280, 295, APS),
    ],
  },
  {
    name: "Faculty of Management and Law, School of Law",
    page: 2,
    firstLine: 489,
    lastLine: 700,
    left: 0,
    right: 300,
    columns: [range(140, 170, YEARS), range(180, 215, { key: "unexpressed", label: "English*" }), range(280, 295, APS)],
  },
  {
    name: "Faculty of Science and Agriculture, School of Agricultural and Environmental Sciences",
    page: 2,
    firstLine: 1,
    lastLine: 323,
    left: 300,
    right: 700,
    columns: [
      range(400, 420, YEARS),
      range(430, 460, subject("English", ENGLISH)),
      range(460, 490, subject("Mathematics", ["mathematics"])),
      range(490, 530, subject("Physical Science", ["physical-sciences"])),
      range(545, 590, subject("Life Science", ["life-sciences"])),
      range(600, 630, subject("Geography", ["geography"])),
      range(635, 660, subject("Agricultural Subject", ["agricultural-sciences", "agricultural-management-practices", "agricultural-technology"])),
      range(665, 690, APS),
    ],
  },
  {
    name: "Faculty of Science and Agriculture, School of Mathematical and Computer Sciences",
    page: 2,
    firstLine: 324,
    lastLine: 478,
    left: 300,
    right: 700,
    columns: [
      range(455, 475, YEARS),
      range(480, 520, subject("English", ENGLISH)),
      range(535, 575, subject("Mathematics", ["mathematics"])),
      range(575, 620, subject("Physical Science", ["physical-sciences"])),
      range(665, 690, APS),
    ],
  },
  {
    name: "Faculty of Science and Agriculture, School of Molecular and Life Sciences",
    page: 2,
    firstLine: 479,
    lastLine: 700,
    left: 300,
    right: 700,
    columns: [
      range(415, 435, YEARS),
      range(440, 470, subject("English", ENGLISH)),
      range(470, 510, subject("Mathematics", ["mathematics"])),
      range(510, 560, subject("Physical Sciences", ["physical-sciences"])),
      range(580, 620, subject("Life Science", ["life-sciences"])),
      range(665, 690, APS),
    ],
  },
  {
    name: "Faculty of Science and Agriculture, School of Physical and Mineral Sciences",
    page: 2,
    firstLine: 1,
    lastLine: 218,
    left: 700,
    right: 1100,
    columns: [
      range(820, 845, YEARS),
      range(855, 885, subject("English", ENGLISH)),
      range(895, 925, subject("Mathematics", ["mathematics"])),
      range(935, 965, subject("Physical Sciences", ["physical-sciences"])),
      range(970, 1000, subject("Life Sciences", ["life-sciences"])),
      range(1060, 1080, APS),
    ],
  },
  {
    name: "Faculty of Health Sciences, School of Medicine",
    page: 2,
    firstLine: 219,
    lastLine: 348,
    left: 700,
    right: 1100,
    columns: [
      range(755, 770, YEARS),
      range(775, 795, subject("English", ENGLISH)),
      range(795, 830, subject("Mathematics", ["mathematics"])),
      range(840, 870, subject("Physical Science", ["physical-sciences"])),
      range(880, 920, subject("Life Science", ["life-sciences"])),
      range(940, 970, subject("Additional Subject 1", ["@other-subject"])),
      range(1010, 1040, subject("Additional Subject 2", ["@other-subject"])),
      range(1055, 1080, APS),
    ],
  },
  {
    name: "Faculty of Health Sciences, School of Health Care Sciences",
    page: 2,
    firstLine: 349,
    lastLine: 700,
    left: 700,
    right: 1100,
    columns: [
      range(800, 825, YEARS),
      range(840, 865, subject("English", ENGLISH)),
      range(865, 900, subject("Mathematics", ["mathematics"])),
      range(915, 945, subject("Physical Sciences", ["physical-sciences"])),
      range(950, 985, subject("Life Sciences", ["life-sciences"])),
      range(990, 1020, subject("Additional subject 1", ["@other-subject"])),
      range(1030, 1055, subject("Additional subject 2", ["@other-subject"])),
      range(1058, 1080, APS),
    ],
  },
];

const TITLE = /(?:B[A-Za-z]+|LLB|MBChB)(?: ?\([^)]*\))* ?- ?Bachelor of .*?(?= {3}|$)/g;
const TOKEN = /(?<![\w(/-])(\*?[1-7]|\d\d\/\d\d|\d\d|OR|or|AND)(?![\w%)/-])/g;
const BAND = /\((\d\d)[- ]\d\d%\)/g;
const LEVEL_OF_BAND: Record<string, number> = { "80": 7, "70": 6, "60": 5, "50": 4, "40": 3, "30": 2 };

type Token = { line: number; x: number; text: string };
type Block = { title: string; lineIndex: number; tokens: Token[]; bands: Token[]; text: string };

/** The programme blocks of one table: each title with the level tokens under it, inside the table's rectangle. */
function blocksOf(table: Table, page: string): Block[] {
  const lines = page.split("\n");
  const blocks: Block[] = [];
  for (let i = table.firstLine - 1; i < Math.min(table.lastLine, lines.length); i++) {
    const line = lines[i] ?? "";
    const title = [...line.matchAll(TITLE)].find((m) => m.index >= table.left && m.index < table.right);
    if (title) {
      blocks.push({ title: title[0].trim(), lineIndex: i, tokens: [], bands: [], text: "" });
      continue;
    }
    const block = blocks.at(-1);
    if (!block) continue;
    const inside = (x: number) => x >= table.left && x < table.right;
    for (const m of line.matchAll(TOKEN)) if (inside(m.index)) block.tokens.push({ line: i, x: m.index, text: m[1] ?? "" });
    for (const m of line.matchAll(BAND)) if (inside(m.index)) block.bands.push({ line: i, x: m.index, text: m[1] ?? "" });
    block.text += ` ${line.slice(table.left, table.right)}`;
  }
  return blocks;
}

type Reading = { years: string | null; aps: string | null; clauses: string[]; notes: string[]; unexpressed: string[] };

const clause = (subjects: readonly string[], level: string) => subjects.map((s) => `${s}:${level}`).join("|");
const isLevel = (t: string) => /^\*?[1-7]$/.test(t);

/** Gives each token to the column whose range it falls in, and states each column's requirement. */
function readByColumns(table: Table, block: Block): Reading {
  const reading: Reading = { years: null, aps: null, clauses: [], notes: [], unexpressed: [] };
  const valuesOf = (r: Range) => block.tokens.filter((t) => t.x >= r.from && t.x < r.to).map((t) => t.text);
  let literacy: string | null = null;
  for (const r of table.columns) {
    const values = valuesOf(r);
    const levels = values.filter(isLevel);
    if (r.column.key === "years") reading.years = levels[0] ?? null;
    else if (r.column.key === "aps") reading.aps = values.find((v) => /^\d\d(\/\d\d)?$/.test(v)) ?? null;
    else if (r.column.key === "literacy") literacy = levels[0] ?? null;
    else if (r.column.key === "unexpressed") {
      if (levels.length > 0) reading.unexpressed.push(`${r.column.label} ${levels.join(" or ")}`);
    } else if (r.column.key === "maths-or-literacy") {
      if (levels.length === 0) continue;
      const items = levels.map((l, i) => (l.startsWith("*") || (i > 0 && r.column.label.includes("Literacy")) ? `mathematical-literacy:${l.replace("*", "")}` : `mathematics:${l}`));
      reading.clauses.push(items.join("|"));
    } else if (r.column.key === "subject") {
      let level = levels[0]?.replace("*", "");
      if (level === undefined) {
        // a column that prints only the band, e.g. "(50-59%)": the band's level
        const band = r.column.bandOnly ? block.bands.find((b) => b.x >= r.from && b.x < r.to) : undefined;
        if (!band) continue;
        level = String(LEVEL_OF_BAND[band.text]);
        reading.notes.push(`${r.column.label}: printed as (${band.text}-${Number(band.text) + 9}%) without a level`);
      }
      if (levels.length > 1) reading.notes.push(`${r.column.label}: ${levels.join(" or ")}`);
      for (let n = 0; n < (r.column.times ?? 1); n++) reading.clauses.push(clause(r.column.subjects, level));
    }
  }
  if (literacy !== null) {
    const maths = reading.clauses.findIndex((c) => c.startsWith("mathematics:"));
    if (maths >= 0) reading.clauses[maths] += `|mathematical-literacy:${literacy}`;
    else reading.clauses.push(`mathematical-literacy:${literacy}`);
  }
  return reading;
}

/** The Accountancy table: Years of Study, English, Mathematics and APS, every cell filled; read in order. */
function readAccountancy(block: Block): Reading {
  const ordered = [...block.tokens].sort((a, b) => a.line - b.line || a.x - b.x);
  const levels = ordered.filter((t) => isLevel(t.text)).map((t) => t.text);
  const aps = ordered.find((t) => /^\d\d$/.test(t.text))?.text ?? null;
  const [years, english, maths] = levels;
  const clauses = english && maths ? [clause(ENGLISH, english), `mathematics:${maths}`] : [];
  return { years: years ?? null, aps, clauses, notes: [], unexpressed: levels.length === 3 ? [] : [`levels ${levels.join(", ")}`] };
}

/** The Language and Communication Studies table: Years of Study (on the APS line), then one cell across English and
 * Another Language (Northern Sotho/Tshivenda/Xitsonga): "4 (50-59%) AND 5 (60-69%)", the first English, the second the other language. */
function readLanguages(block: Block): Reading {
  const apsToken = block.tokens.find((t) => /^\d\d$/.test(t.text));
  const years = block.tokens.find((t) => apsToken && t.line === apsToken.line && isLevel(t.text) && t.x < 545);
  const levels = [...block.tokens]
    .filter((t) => t !== years && isLevel(t.text))
    .sort((a, b) => a.line - b.line || a.x - b.x)
    .map((t) => t.text);
  const [english, other] = levels;
  const northernSothoOnly = /English and Northern Sotho only/.test(block.text);
  const clauses = english && other ? [clause(ENGLISH, english), clause(northernSothoOnly ? lang("sepedi") : NORTHERN_LANGUAGES, other)] : [];
  const notes = [`English ${english} AND Another Language (Northern Sotho/Tshivenda/Xitsonga) ${other}, one cell across both columns`];
  if (northernSothoOnly) notes.push("(English and Northern Sotho only)");
  return { years: years?.text ?? null, aps: apsToken?.text ?? null, clauses, notes, unexpressed: levels.length === 2 ? [] : [`levels ${levels.join(", ")}`] };
}

/** Statements printed beside a table or in the general admission section, by programme. */
function extraNotes(title: string): string[] {
  const notes: string[] = [];
  if (/Social Work|Foundation Phase|Psychology -|BPsych/.test(title)) notes.push("admission also depends on passing a selection test (section 7, Selection Tests)");
  if (/Languages and Social Sciences/.test(title)) notes.push("English 3 (40-49%) OR 4 (50-59%) to major in English");
  if (/Mathematical Sciences stream\)$/.test(title)) notes.push("Physical Science 5 (60-69%) for students selecting Physics as an elective (not a requirement for all)");
  if (/Physical Sciences stream\)$/.test(title)) notes.push("Life Sciences 4 (50-59%) for students selecting Life Sciences as an elective (not a requirement for all)");
  if (/Political Studies/.test(title)) notes.push("Additional subjects to contribute to minimum APS total; the Three (3) *(Five(5)) additional subjects column is starred for this programme");
  if (/Planning and Management/.test(title)) notes.push("Additional subjects: 4 (50-59%) (Each additional subject requires a subminimum of); encoded as four further subjects at level 4 (APS counts six subjects)");
  if (/Bachelor of Laws/.test(title)) notes.push("English* 5 (60-69%): * A score of 4 (50-59%) for English Home Language will be accepted");
  return notes;
}

/** The mainstream programmes whose conditional column (starred, for students selecting an elective) is not a requirement. */
function dropConditional(title: string, clauses: string[]): string[] {
  if (/Mathematical Sciences stream\)$/.test(title)) return clauses.filter((c) => !c.startsWith("physical-sciences:"));
  if (/Physical Sciences stream\)$/.test(title)) return clauses.filter((c) => !c.startsWith("life-sciences:"));
  return clauses;
}

function rowOf(table: Table, block: Block): ExtractedRow {
  const reading = table.inOrder === "accountancy" ? readAccountancy(block) : table.inOrder === "languages" ? readLanguages(block) : readByColumns(table, block);
  const [aps, literacyAps] = (reading.aps ?? "").split("/");
  let clauses = dropConditional(block.title, reading.clauses);
  const notes = [table.name];
  if (literacyAps) notes.push(`APS ${reading.aps}: ${aps} with Mathematics, Mathematical Literacy: APS ${literacyAps}`);
  if (reading.years) notes.push(`${reading.years} years`);
  if (/Bachelor of Laws/.test(block.title)) {
    const english = reading.unexpressed.find((u) => u.startsWith("English*"))?.split(" ")[1];
    reading.unexpressed = reading.unexpressed.filter((u) => !u.startsWith("English*"));
    if (english) clauses = [`english-home-language:${Math.min(4, Number(english))}|english-first-additional-language:${english}`, ...clauses];
  }
  notes.push(...reading.notes, ...extraNotes(block.title));
  if (reading.unexpressed.length > 0) notes.push(`not expressible, so no requirements recorded: ${reading.unexpressed.join("; ")}`);
  return {
    name_as_written: block.title,
    code: null,
    intake_year: 2026,
    min_aps: aps ? Number(aps) : null,
    requirements: reading.unexpressed.length > 0 || clauses.length === 0 ? null : clauses.join(";"),
    page: table.page,
    line: null,
    read_by: "script",
    note: notes.join("; "),
  };
}

export const document: OfficialDocument = {
  id: "ul-prospectus-2026",
  university_slug: "university-of-limpopo",
  witness_id: "ul-prospectus-2026",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/ul_2026.pdf",
  sha256: "52c1819cfbf4cd94f0a7d0bff63aa28f3cb5ddd0b76939036925bb128048107b",
  format: "pdf",
  intake_year: 2026,
  extract(pages) {
    return TABLES.flatMap((table) => {
      const page = pages[table.page - 1];
      return page === undefined ? [] : blocksOf(table, page).map((block) => rowOf(table, block));
    });
  },
};
