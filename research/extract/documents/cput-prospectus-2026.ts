// CPUT, Prospectus 2026 (edition 11/2024), 15 pages: the admission tables of each faculty. Applied Sciences
// p. 7, Business and Management Sciences p. 9, Education p. 10, Health and Wellness Sciences p. 11, Informatics
// and Design p. 13, Engineering and the Built Environment p. 15. Each table is read by the character columns
// pdftotext -layout gives it: a row starts where the qualification column starts with a programme's first word,
// and runs to the next such line; each cell is the text of its column range over the row's lines. The APS
// methods (p. 3): Method 1 (best six, /10, max 60), Method 2 (Mathematics and Physical Sciences doubled, max
// 60), Method 3 (Mathematics and Accounting doubled, max 80); the figure is recorded as printed, the method in
// the note. Construction (p. 15) uses "25 unweighted NSC points" (NSC levels, p. 14), on none of CPUT's methods:
// min_aps null, the figure in the note. Where a table gives an extended programme (ECP) only as a column of the
// mainstream row, the ECP row is named "<name> (ECP)" (the form the tables' footnotes use).
import type { ExtractedRow, OfficialDocument } from "../document.ts";

const INTAKE = 2026;

type Block = { start: number; lines: string[] };

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** The text of columns [a, b) over the block's lines, joined by spaces. */
function cell(block: Block, a: number, b: number): string {
  return squash(block.lines.map((line) => line.slice(a, b)).join(" "));
}

/** Columns [a, b) of each line split where the first two-digit figure starts: the name, and the APS text. */
function nameAndAps(block: Block, a: number, b: number): { name: string; aps: string } {
  const names: string[] = [];
  const aps: string[] = [];
  for (const line of block.lines) {
    const text = line.slice(a, b);
    const at = text.search(/(^|\s)\d{2}(\s|$|\+)/);
    names.push(at < 0 ? text : text.slice(0, at));
    aps.push(at < 0 ? "" : text.slice(at));
  }
  return { name: squash(names.join(" ")), aps: squash(aps.join(" ")) };
}

/** The line with the department column's capitals (at its start) blanked, so a programme name beside a long
 * department name ("BIOTECHNOLOGY Diploma in") starts in the qualification column. */
const blankDepartment = (line: string) => line.replace(/^([A-Z&,]+(?: [A-Z&,]+)*)(?= )/, (m) => " ".repeat(m.length));

/** Rows of a table: a row starts where columns [a, b) start with a programme's first word. */
function blocks(lines: readonly string[], from: number, to: number, a: number, b: number, start: RegExp): Block[] {
  const found: Block[] = [];
  for (let i = from; i < to; i++) {
    const line = lines[i] ?? "";
    const text = line.slice(a, b);
    const at = a + text.length - text.trimStart().length;
    if (start.test(text.trimStart()) && at - a <= 8 && (at === 0 || /\s/.test(line[at - 1] ?? ""))) found.push({ start: i, lines: [line] });
    else found.at(-1)?.lines.push(line);
  }
  return found;
}

const indexOf = (lines: readonly string[], re: RegExp, from = 0): number => {
  for (let i = from; i < lines.length; i++) if (re.test(lines[i] ?? "")) return i;
  throw new Error(`cput-prospectus-2026: no line matches ${re}`);
};

const english = (level: string | number) => `english-home-language:${level}|english-first-additional-language:${level}`;

/** A subject cell: its level and the marks beside it ("*3", "5**", "4****"). */
function level(text: string): { level: number; mark: string } | null {
  const m = /^(\**)(\d)(\**)$/.exec(text.trim());
  return m ? { level: Number(m[2]), mark: (m[1] ?? "") + (m[3] ?? "") } : null;
}

const SUBJECTS: [RegExp, string][] = [
  [/^(ECO|ECON|Economics)$/i, "economics"],
  [/^(BUS|Business Studies)$/i, "business-studies"],
  [/^(ACC|Accounting)$/i, "accounting"],
  [/^(CAT)$/i, "computer-applications-technology"],
  [/^(IT)$/i, "information-technology"],
  [/^(TOUR|Tourism)$/i, "tourism"],
  [/^(HS)$/i, "hospitality-studies"],
  [/^(CS|Consumer Studies)$/i, "consumer-studies"],
  [/^(HIS)$/i, "history"],
  [/^(GEO|Geography)$/i, "geography"],
  [/^(LS|Life Sciences)$/i, "life-sciences"],
  [/^(PS|Physical Sciences?)$/i, "physical-sciences"],
  [/^(TS)$/i, "technical-sciences"],
  [/^(CIVT)$/i, "civil-technology"],
  [/^(EGD)$/i, "engineering-graphics-and-design"],
  [/^(ELECT)$/i, "electrical-technology"],
  [/^(MECHT)$/i, "mechanical-technology"],
];

function subjectSlug(name: string): string {
  const found = SUBJECTS.find(([re]) => re.test(name.trim()));
  if (!found) throw new Error(`cput-prospectus-2026: unknown subject "${name}"`);
  return found[1];
}

/** "ECO, BUS, ACC 4" / "BUS/ ACC/ ECO 4" / "ECO 3 (40%), BUS 3 (40%)" / "ACC (3), BUS (3)": [slug, level|null]. */
function subjectList(text: string): [string, number | null][] {
  return text
    .split(/,|\/|\band\b|\bor\b/)
    .map((t) => t.replace(/\(\d+%\)/g, "").trim())
    .filter(Boolean)
    .map((t) => {
      const m = /^(.*?)\s*\(?(\d)?\)?$/.exec(t);
      return [subjectSlug(m?.[1] ?? t), m?.[2] ? Number(m[2]) : null];
    });
}

const clauseOf = (items: [string, number | null][], fallback: number) => items.map(([s, l]) => `${s}:${l ?? fallback}`).join("|");

function row(name: string, page: number, minAps: ExtractedRow["min_aps"], requirements: string | null, notes: (string | null | undefined)[]): ExtractedRow {
  const note = notes.filter((n): n is string => Boolean(n && n.trim())).join("; ");
  return { name_as_written: squash(name), code: null, intake_year: INTAKE, min_aps: minAps, requirements, page, line: null, read_by: "script", note: note || null };
}

/** "28 with Maths; 29 with Tech Maths; 30 with Maths Literacy" (p. 7): the figure of each route. */
function routes(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const m of text.matchAll(/(\d{2})\s+with\s+(Maths Literacy|Tech Maths|Maths)/g)) found.set(m[2] ?? "", Number(m[1]));
  return found;
}

function routeNote(found: Map<string, number>): string | null {
  const parts = [found.has("Tech Maths") ? `Technical Mathematics: ${found.get("Tech Maths")}` : null, found.has("Maths Literacy") ? `Mathematical Literacy: ${found.get("Maths Literacy")}` : null].filter(Boolean);
  return parts.length ? parts.join("; ") : null;
}

// ---------------------------------------------------------------- p. 7: Faculty of Applied Sciences
/** The ECP and mainstream APS columns of p. 7, which pdftotext sometimes packs one space apart ("30 with Maths 32
 * with Maths method"): each line's text from column 42 is cut into pieces at gaps of two spaces and before each
 * two-digit figure; a piece starting before column 56 is the ECP's, before 72 the mainstream's, later ones are the
 * method column's (whose words "method" and "brochure" can run into the mainstream column: dropped). */
function apsColumns(block: Block): { ecp: string; main: string } {
  const ecp: string[] = [];
  const main: string[] = [];
  for (const line of block.lines) {
    const text = line.slice(0, 90).replace(/\b(method|brochure)\b/g, (m) => " ".repeat(m.length));
    const pieces: { at: number; text: string }[] = [];
    let last = -10;
    for (const m of text.slice(42).matchAll(/\S+/g)) {
      const at = 42 + (m.index ?? 0);
      const piece = pieces.at(-1);
      if (piece && at - last <= 2 && !/^\d{2}$/.test(m[0])) piece.text += ` ${m[0]}`;
      else pieces.push({ at, text: m[0] });
      last = at + m[0].length;
    }
    for (const piece of pieces) {
      if (piece.at < 56) ecp.push(piece.text);
      else if (piece.at < 72) main.push(piece.text);
    }
  }
  return { ecp: squash(ecp.join(" ")), main: squash(main.join(" ")) };
}

function appliedSciences(text: string, page: number): ExtractedRow[] {
  const lines = text.split("\n").map(blankDepartment);
  const head = indexOf(lines, /QUALIFICATION\s+MINIMUM APS SCORE/);
  const end = indexOf(lines, /^Meeting minimum admission requirements/, head);
  // The method column is one cell over the whole table: "To find out how to calculate your APS score see method 1 on the reverse of this brochure".
  const method = /see\s+method\s+1 on the\s+reverse/.test(squash(lines.slice(head, end).map((l) => l.slice(70, 90)).join(" "))) ? "Method 1" : null;
  const rows: ExtractedRow[] = [];
  for (const block of blocks(lines, head + 1, end, 13, 42, /^(Diploma|Bachelor)\b/)) {
    const name = cell(block, 13, 42);
    const { ecp: ecpCell, main: mainCell } = apsColumns(block);
    const subjects = {
      english: level(cell(block, 88, 97)),
      maths: level(cell(block, 97, 104)),
      tech: level(cell(block, 104, 111)),
      lit: level(cell(block, 111, 118)),
      life: level(cell(block, 118, 127)),
      physical: level(cell(block, 127, 133)),
    };
    const comment = cell(block, 133, 200);
    const base: string[] = [];
    if (subjects.english) base.push(english(subjects.english.level));
    const maths = [
      subjects.maths ? `mathematics:${subjects.maths.level}` : null,
      subjects.tech ? `technical-mathematics:${subjects.tech.level}` : null,
      subjects.lit ? `mathematical-literacy:${subjects.lit.level}` : null,
    ].filter(Boolean);
    if (maths.length) base.push(maths.join("|"));
    let life = subjects.life ? `life-sciences:${subjects.life.level}` : null;
    const physical = subjects.physical ? `physical-sciences:${subjects.physical.level}` : null;
    const general: string[] = [];
    // Comments that state a rule for every applicant (the Food Science row has no ECP at all).
    const plusOther = /Plus any (?:other two|two other) subjects.*?(?:\((\d)\)|Level (\d))/.exec(comment);
    if (plusOther) {
      const l = plusOther[1] ?? plusOther[2];
      general.push(`@other-subject:${l}`, `@other-subject:${l}`);
    }
    const geoOrLife = /\((\d)\) for Geography or Life Sciences/.exec(comment);
    if (geoOrLife) {
      life = `life-sciences:${geoOrLife[1]}|geography:${geoOrLife[1]}`;
      if (/any other 2 subjects at 40% \(3\)/.test(comment)) general.push("@other-subject:3");
    }
    const otherSubjects = /Other subjects:(.*)$/.exec(mainCell);
    const mainstreamOther = otherSubjects ? clauseOf(subjectList(otherSubjects[1]?.replace(/;\s*/g, ",") ?? ""), 0) : null;
    const mainRoutes = routes(mainCell.replace(/Other subjects:.*$/, ""));
    const mainReq = [...base, life, physical, mainstreamOther, ...general].filter(Boolean).join(";");
    const generalNote = plusOther || geoOrLife ? `"${comment}"` : null;
    const geoNote = geoOrLife ? `Physical Sciences (3) read as one of "any other 2 subjects at 40%"` : null;
    const foodNote = /excl\. languages/.test(comment) ? "the two other subjects exclude languages" : null;
    rows.push(row(name, page, mainRoutes.get("Maths") ?? null, mainReq, [method, routeNote(mainRoutes), generalNote, geoNote, foodNote]));
    if (/N\/A/.test(ecpCell)) continue;
    const ecpRoutes = routes(ecpCell);
    // The comments column is headed "ECP: Subject to space, students may be admitted with:".
    let ecpReq: string | null = mainReq;
    let ecpNote: string | null = null;
    if (/^Life Sciences or Physical Sciences$/.test(comment)) {
      ecpReq = [...base, `life-sciences:${subjects.life?.level}|physical-sciences:${subjects.physical?.level}`, ...general].join(";");
      ecpNote = `ECP, subject to space: "${comment}"`;
    } else if (/45% or above/.test(comment)) {
      // "45% or above in Maths or Physical Sciences [or Life Sciences] if the other one [three] is 50% or above":
      // one route per named subject, that subject at 45% and the other named ones at 50% (level 4), English and
      // the other clauses of the row in each; Technical Mathematics keeps its column's level (the comment names Maths only).
      const named = /Life Sciences/.test(comment) ? ["maths", "life", "physical"] : ["maths", "physical"];
      const clauseFor = (subject: string, lowered: boolean): string | null => {
        if (subject === "maths") {
          const tech = subjects.tech ? `|technical-mathematics:${subjects.tech.level}` : "";
          return `mathematics:${lowered ? "45%" : "4"}${tech}`;
        }
        const slug = subject === "life" ? "life-sciences" : "physical-sciences";
        return `${slug}:${lowered ? "45%" : "4"}`;
      };
      const others = [life && !named.includes("life") ? life : null, ...general].filter(Boolean);
      ecpReq = named
        .map((lowered) => [subjects.english ? english(subjects.english.level) : null, ...named.map((s) => clauseFor(s, s === lowered)), ...others].filter(Boolean).join(";"))
        .join("||");
      ecpNote = `ECP, subject to space, the column's subjects with "${comment}": one route per named subject at 45%, the other named ones at 50%; Technical Mathematics at its column's level`;
    } else if (/Foundation Programme if they have at least 40% \(3\) for Life Sciences/.test(comment)) {
      ecpReq = [...base, "life-sciences:3", physical, ...general].filter(Boolean).join(";");
      ecpNote = `ECP ("Foundation Programme"), subject to space: Life Sciences 40% (3)`;
    } else if (/^40% or above in Physical Sciences/.test(comment)) {
      const list = subjectList(comment.replace(/^40% or above in /, "").replace(/;\s*/g, ","));
      ecpReq = [...base, clauseOf(list, 3)].join(";");
      ecpNote = `ECP, subject to space: "${comment}"`;
    } else if (comment && !generalNote) throw new Error(`cput-prospectus-2026: p. ${page} ${name}: comment not read: ${comment}`);
    rows.push(row(`${name} (ECP)`, page, ecpRoutes.get("Maths") ?? null, ecpReq, [method, "the ECP column of the row", routeNote(ecpRoutes), ecpNote ?? generalNote, geoNote, foodNote]));
  }
  return rows;
}

// ---------------------------------------------------------------- p. 9: Business and Management Sciences
function includingClause(comment: string): { clause: string | null; note: string | null } {
  if (/Including one official language at level (\d) \(Excluding English\)/.test(comment)) {
    const l = /Including one official language at level (\d)/.exec(comment)?.[1];
    return { clause: `@other-language:${l}`, note: "one official language other than English at level 4" };
  }
  const m = /Including one of the following( at level (\d) \(\d+%\))?( for full-time studies)?:?\s*(.*?)(?=\.|Part-time|Applicants|Work experience|\(no rating required\)|$)/.exec(comment);
  if (!m) return { clause: null, note: null };
  if (/ICT AND ACC/.test(m[4] ?? "")) return { clause: null, note: null };
  const list = subjectList((m[4] ?? "").replace(/\.$/, ""));
  const noRating = /\(no rating required\)/.test(comment);
  const stated = list.map(([, l]) => l).filter((l): l is number => l !== null);
  const headLevel = m[2] ? Number(m[2]) : null;
  const one = stated.length === 1 && list.length > 1 ? stated[0] : null;
  const fallback = headLevel ?? one ?? 1;
  const items: [string, number | null][] = one ? list.map(([s]) => [s, one]) : list;
  const note = noRating ? `one of the listed subjects, "no rating required" (encoded at level 1)` : stated.length === 0 && !headLevel ? "one of the listed subjects, no level stated (encoded at level 1)" : null;
  return { clause: clauseOf(items, fallback), note: [note, m[3] ? "for full-time studies" : null].filter(Boolean).join("; ") || null };
}

function business(text: string, page: number): ExtractedRow[] {
  const lines = text.split("\n");
  const head = indexOf(lines, /QUALIFICATION\s+APS\s+METHOD\s+ENGLISH/);
  const end = indexOf(lines, /^Please email any Faculty of Business/, head);
  const rows: ExtractedRow[] = [];
  let previous: { clause: string | null; note: string | null; tech: boolean } = { clause: null, note: null, tech: false };
  let previousComment = "";
  for (const block of blocks(lines, head + 2, end, 20, 56, /^(Diploma|Bachelor)\b/)) {
    const left = cell(block, 20, 62);
    const name = left.replace(/\d{2}\s*(\((M|ML)\))?/g, " ");
    const aps = [...left.matchAll(/(\d{2})\s*(?:\((M|ML)\))?/g)].map((m) => ({ value: Number(m[1]), route: m[2] ?? null }));
    const methodCell = cell(block, 62, 73);
    const method = /^\d$/.test(methodCell) ? Number(methodCell) : null;
    const e = level(cell(block, 73, 85));
    const m = level(cell(block, 85, 95));
    const ml = level(cell(block, 95, 104));
    const acc = level(cell(block, 104, 113));
    const own = cell(block, 113, 220);
    // A row whose comment starts mid-sentence ("indicating their understanding ...", "(i.e. marketing-related).")
    // sits under a cell merged with the row above (mainstream and extended): the whole cell is both rows'.
    const merged = /^[a-z(]/.test(own);
    const comment = merged ? `${previousComment} ${own}` : own;
    previousComment = comment;
    const clauses: string[] = [];
    if (e) clauses.push(english(e.level));
    const starred = [m, ml, acc].some((s) => s?.mark === "*");
    const maths = [m ? `mathematics:${m.level}` : null, ml ? `mathematical-literacy:${ml.level}` : null, starred && acc ? `accounting:${acc.level}` : null].filter(Boolean);
    const techMaths = /Technical Maths at level (\d)/.exec(comment);
    if (techMaths) maths.push(`technical-mathematics:${techMaths[1]}`);
    const asAbove = /^As above/.test(comment);
    if (asAbove && previous.tech) maths.push(...["technical-mathematics:5"]);
    if (maths.length) clauses.push(maths.join("|"));
    const including = asAbove ? previous : includingClause(comment);
    if (including.clause) clauses.push(including.clause);
    if (!asAbove) previous = { ...including, tech: Boolean(techMaths) };
    const banking = /ICT AND ACC/.test(comment);
    const mathsAps = aps.find((a) => a.route === "M" || a.route === null)?.value ?? null;
    const lit = aps.find((a) => a.route === "ML")?.value;
    rows.push(
      row(name, page, mathsAps, banking ? null : clauses.join(";"), [
        method ? `Method ${method}` : /Contact Classes/.test(methodCell) ? `method column: "${methodCell}"` : "method column empty",
        lit ? `Mathematical Literacy: ${lit}` : null,
        starred ? "English and one of the starred subjects; Mathematics and Accounting doubled (Method 3)" : null,
        techMaths ? `Technical Mathematics at level ${techMaths[1]} "would be considered"` : null,
        asAbove ? `"As above"` : null,
        merged ? "the comments cell is merged with the row above" : null,
        including.note,
        banking ? `one of "ICT AND ACC; OR ECO; OR BUS; OR Consumer Studies OR Management Practice OR Financial Management OR Marketing (all at NQF Level 4)" (not encoded); part-time, letter of full-time employment` : null,
        /Part-time|part-time/.test(comment) && !banking ? "part-time applicants: employment rules" : null,
        /motivation letter/.test(comment) ? "motivation letter" : null,
        /Non-Academic Review Component/.test(comment) ? `"Non-Academic Review Component for Sport Management" form` : null,
        /three years relevant retail experience/.test(comment) ? "an NSC with three years of relevant retail experience also considered" : null,
        /Work experience recommended/.test(comment) ? "work experience recommended" : null,
        /NCV\) applicable requirement/.test(comment) ? "NCV route stated" : null,
        /Operations Management/.test(name) ? "Operations Management requires Mathematics, not Mathematical Literacy or Technical Mathematics (p. 2)" : null,
      ]),
    );
  }
  return rows;
}

// ---------------------------------------------------------------- p. 10: Faculty of Education
const HOME = ["afrikaans", "english", "isindebele", "isixhosa", "isizulu", "sepedi", "sesotho", "setswana", "siswati", "tshivenda", "xitsonga"];

function education(text: string, page: number): ExtractedRow[] {
  const lines = text.split("\n");
  const head = indexOf(lines, /QUALIFICATION\s+APS\s+MINIMUM ADMISSION/);
  const end = indexOf(lines, /Please refer to Faculty of Education Application Guidelines/, head);
  return blocks(lines, head + 2, end, 4, 33, /^BACHELOR IN\b/).map((block) => {
    const name = cell(block, 4, 33);
    const aps = Number(/^(\d{2})$/.exec(cell(block, 33, 41))?.[1]);
    const minimum = cell(block, 41, 76);
    const home = /Home Language \((\d)\)/.exec(minimum)?.[1];
    const additional = /First Additional Language \((\d)\)/.exec(minimum)?.[1];
    const requirements = [HOME.map((l) => `${l}-home-language:${home}`).join("|"), HOME.map((l) => `${l}-first-additional-language:${additional}`).join("|")].join(";");
    const electives = /electives must obtain/.test(minimum) ? "electives: Mathematics, Accounting, Physical Sciences, Life Sciences at 50%, Mathematical Literacy 60%" : null;
    return row(
      name.replace(/^BACHELOR IN EDUCATION:/, "Bachelor in Education:").replace(/ and FURTHER EDUCATION & TRAINING \(FET\) TEACHING$/, " and Further Education & Training (FET) Teaching").replace(/: ([A-Z ]+)$/, (_, s: string) => `: ${s.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase())}`).replace(/: SENIOR PHASE/, ": Senior Phase"),
      page,
      Number.isFinite(aps) ? aps : null,
      requirements,
      [
        "APS method not stated",
        `home language (${home}) and first additional language (${additional}), one of them the language of instruction (Mowbray English, Wellington Afrikaans only)`,
        "NSC: (4) in four subjects (bachelor's endorsement), (4) in subjects related to the electives",
        electives,
        "selection on Grade 11 results",
      ],
    );
  });
}

// ---------------------------------------------------------------- p. 11: Health and Wellness Sciences
function health(text: string, page: number): ExtractedRow[] {
  const lines = text.split("\n");
  const head = indexOf(lines, /QUALIFICATION\s+\*\*\*APS score/);
  const end = indexOf(lines, /^\* = as alternative for Life Sciences/, head);
  const method = /see\s+method\s+1/.test(lines.slice(head, end).map((l) => l.slice(105, 120)).join(" ").replace(/\s+/g, " ")) ? "Method 1" : null;
  const found = blocks(lines, head + 2, end, 41, 86, /^(Diploma|Bachelor|BHSc|BSc|HC)\b/);
  // The further-requirements column: a sentence complete in one row (capital to full stop) is that row's; the
  // other fragments of a department run over its rows ("As part of the selection for all EMS programmes ...")
  // and are every row's of that department.
  const department: number[] = [];
  const FIRST = /^(BIOMEDICAL|DENTAL|EMERGENCY|WELLNESS|NURSING|OPHTHALMIC|MEDICAL)\b/; // each department name's first line
  found.forEach((block, i) => department.push(FIRST.test(block.lines[0]?.slice(0, 41).trim() ?? "") ? i : (department[i - 1] ?? 0)));
  const own = found.map((block) => cell(block, 181, 240));
  const complete = own.map((text) => /^[A-Z].*\.$/.test(text));
  const shared = found.map((_, i) => squash(own.filter((text, j) => department[j] === department[i] && !complete[j]).join(" ")));
  return found.map((block, i) => {
    const name = cell(block, 41, 86);
    const apsCell = cell(block, 86, 106);
    const e = level(cell(block, 118, 129));
    const m = level(cell(block, 129, 138));
    const tm = level(cell(block, 138, 146));
    const ml = level(cell(block, 146, 155));
    const ls = level(cell(block, 155, 170));
    const ps = level(cell(block, 170, 181));
    const further = [shared[i], complete[i] ? own[i] : null].filter(Boolean).join(" ");
    const clauses: string[] = [];
    if (e) clauses.push(english(e.level));
    const maths = [m ? `mathematics:${m.level}` : null, tm ? `technical-mathematics:${tm.level}` : null, ml ? `mathematical-literacy:${ml.level}` : null].filter(Boolean);
    if (maths.length) clauses.push(maths.join("|"));
    if (ls && ps && ps.mark === "*") clauses.push(`life-sciences:${ls.level}|physical-sciences:${ps.level}`);
    else {
      if (ls) clauses.push(`life-sciences:${ls.level}`);
      if (ps) clauses.push(`physical-sciences:${ps.level}`);
    }
    let aps: number | null = null;
    let apsNote: string | null = null;
    const range = /^(\d{2})\s*[–-]\s*(\d{2})$/.exec(apsCell);
    const plus = /^(\d{2})\+$/.exec(apsCell);
    const withMaths = /^(\d{2}) \(with Maths\); (\d{2}) \(with Maths Literacy\)$/.exec(apsCell);
    if (range) [aps, apsNote] = [Number(range[1]), `APS ${range[1]}-${range[2]}`];
    else if (plus) [aps, apsNote] = [Number(plus[1]), `"${apsCell}"`];
    else if (withMaths) [aps, apsNote] = [Number(withMaths[1]), `Mathematical Literacy: ${withMaths[2]}`];
    else throw new Error(`cput-prospectus-2026: p. ${page} ${name}: APS "${apsCell}"`);
    return row(name, page, aps, clauses.join(";"), [method, apsNote, "preference to higher APS scores", ls?.mark === "****" ? "Life Sciences and Physical Sciences compulsory" : null, further ? `further: "${further}"` : null]);
  });
}

// ---------------------------------------------------------------- p. 13: Informatics and Design
function design(text: string, page: number): ExtractedRow[] {
  const lines = text.split("\n");
  const head = indexOf(lines, /QUALIFICATION\s+APS SCORE\s+ENGLISH\s+LANGUAGE/);
  const end = indexOf(lines, /^Subject to the space availability, consideration will be given for admitting students to the Design ECP/, head);
  return blocks(lines, head + 3, end, 17, 45, /^(Diploma|Extended|Higher)\b/).map((block) => {
    const { name, aps: apsCell } = nameAndAps(block, 17, 74);
    const e = level(cell(block, 74, 86));
    const language = cell(block, 86, 109);
    const m = level(cell(block, 109, 117));
    const ml = level(cell(block, 117, 124));
    const tm = level(cell(block, 124, 133));
    const additional = cell(block, 133, 200);
    const clauses: string[] = [];
    if (e) clauses.push(english(e.level));
    const percent = /HL or FAL: (\d+)% \(Excl\. English\)/.exec(language);
    const lvl = /HL or FAL \(Excluding English\) (\d)/.exec(language);
    if (percent) clauses.push(`@other-language:${percent[1]}%`);
    else if (lvl) clauses.push(`@other-language:${lvl[1]}`);
    else if (language) throw new Error(`cput-prospectus-2026: p. ${page} ${name}: language "${language}"`);
    const maths = [m ? `mathematics:${m.level}` : null, ml ? `mathematical-literacy:${ml.level}` : null, tm ? `technical-mathematics:${tm.level}` : null].filter(Boolean);
    if (maths.length) clauses.push(maths.join("|"));
    const compulsory = /^Compulsory: (.*)$/.exec(additional);
    if (compulsory) clauses.push(clauseOf(subjectList(compulsory[1] ?? ""), 0));
    else if (additional) throw new Error(`cput-prospectus-2026: p. ${page} ${name}: "${additional}"`);
    let aps: number | null = null;
    let apsNote: string | null = null;
    const two = /^(\d{2}) with M; (\d{2}) with ML$/.exec(apsCell);
    const both = /^(\d{2}) with M & ML$/.exec(apsCell);
    if (two) [aps, apsNote] = [Number(two[1]), `Mathematical Literacy: ${two[2]}`];
    else if (both) [aps, apsNote] = [Number(both[1]), `"${apsCell}"`];
    else if (/^\d{2}$/.test(apsCell)) aps = Number(apsCell);
    else throw new Error(`cput-prospectus-2026: p. ${page} ${name}: APS "${apsCell}"`);
    return row(name, page, aps, clauses.join(";"), [
      "APS method not stated on the page",
      apsNote,
      maths.length ? "Technical Mathematics caters for TVET students (not compulsory)" : "no Mathematics column filled",
      percent ? `another language, HL or FAL (excluding English), at ${percent[1]}%` : null,
      lvl ? "another language, HL or FAL (excluding English), at level 4" : null,
      /^Extended Curriculum (Fashion|Visual|Product|Jewellery)/.test(name) ? "ECP places subject to space" : null,
    ]);
  });
}

// ---------------------------------------------------------------- p. 15: Engineering and the Built Environment
/** Cells the table merges over two rows (printed once, between them): the row that lacks them takes its partner's. */
const MERGED: [string, string][] = [
  ["Diploma in Civil Engineering", "Diploma in Geomatics (Combining Surveying & Cartography)"],
  ["Bachelor of Engineering Technology in Civil Engineering", "Bachelor of Geomatics"],
  ["Diploma in Engineering Technology in Electrical Engineering", "Diploma in Engineering Technology in Computer Engineering"],
  ["Bachelor of Engineering Technology in Electrical Engineering", "Bachelor of Engineering Technology in Computer Engineering"],
  ["Bachelor of Marine Engineering", "Bachelor of Nautical Science"],
  ["Bachelor of Marine Engineering ECP", "Bachelor of Nautical Science ECP"],
];

type EngineeringCells = Record<"main" | "ecp" | "method" | "english" | "maths" | "tech" | "lit" | "physical" | "techsci" | "further", string>;

function engineering(text: string, page: number): ExtractedRow[] {
  const lines = text.split("\n");
  const head = indexOf(lines, /^DEPARTMENT\s+QUALIFICATION\s+Mathematical Literacy \(ML\) is not accepted/);
  const end = indexOf(lines, /^Subject to the space availability, consideration will be given for admitting students to the ECP/, head);
  const footer = squash(lines.slice(end, end + 5).join(" "));
  const ecpConcession = /for the following programmes only: (.*?)\. Meeting/.exec(footer)?.[1] ?? "";
  const read = blocks(lines, head + 1, end, 12, 43, /^(Diploma|Bachelor)\b/).map((block) => {
    const name = cell(block, 12, 43);
    const cells: EngineeringCells = {
      main: cell(block, 40, 52),
      ecp: cell(block, 52, 64),
      method: cell(block, 64, 76),
      english: cell(block, 76, 86),
      maths: cell(block, 86, 95),
      tech: cell(block, 95, 104),
      lit: cell(block, 104, 113),
      physical: cell(block, 113, 124),
      techsci: cell(block, 124, 135),
      further: cell(block, 135, 158),
    };
    return { name, cells };
  });
  // The maritime rows share one further-requirements cell ("Eyesight and Medical at approved SAMSA Medical Practitioner").
  const maritime = read.filter((r) => /Marine|Nautical/.test(r.name));
  const maritimeFurther = squash(maritime.map((r) => r.cells.further).join(" "));
  for (const r of maritime) r.cells.further = maritimeFurther;
  const byName = new Map(read.map((r) => [r.name, r]));
  for (const [a, b] of MERGED) if (!byName.has(a) || !byName.has(b)) throw new Error(`cput-prospectus-2026: p. ${page}: merged pair ${a} / ${b} not found`);
  const rows: ExtractedRow[] = [];
  for (const { name, cells } of read) {
    const pair = MERGED.find(([a, b]) => a === name || b === name);
    const partner = pair ? byName.get(pair[0] === name ? pair[1] : pair[0])?.cells : undefined;
    const take = (key: keyof EngineeringCells) => ((key === "further" ? cells[key] === "" : !/\d|--|NSC/.test(cells[key])) ? (partner?.[key] ?? cells[key]) : cells[key]);
    const merged = (Object.keys(cells) as (keyof EngineeringCells)[]).filter((k) => take(k) !== cells[k]);
    const method = /Method\s*(\d)|^(\d)$/.exec(take("method"));
    const nsc = /Use NSC rating/.test(take("method"));
    const clauses: string[] = [];
    const e = level(take("english"));
    if (e) clauses.push(english(e.level));
    const m = level(take("maths"));
    const tm = level(take("tech"));
    const ml = level(take("lit"));
    const maths = [m ? `mathematics:${m.level}` : null, tm ? `technical-mathematics:${tm.level}` : null, ml ? `mathematical-literacy:${ml.level}` : null].filter(Boolean);
    if (maths.length) clauses.push(maths.join("|"));
    const physicalCell = take("physical");
    const ps = level(physicalCell.replace(/\s*or ET \d$/, ""));
    const et = /or ET (\d)$/.exec(physicalCell);
    const ts = level(take("techsci"));
    const science = [ps ? `physical-sciences:${ps.level}` : null, et ? `electrical-technology:${et[1]}` : null, ts ? `technical-sciences:${ts.level}` : null].filter(Boolean);
    if (science.length) clauses.push(science.join("|"));
    const further = take("further");
    const recommended = /^Recommended:\s*(?:One of the following:|Any of the following:)?\s*(.*)$/.exec(further);
    if (recommended) clauses.push(`~${clauseOf(subjectList(recommended[1] ?? ""), 0)}`);
    const furtherNote = further && further !== "--" && !recommended ? `further: "${further}"` : null;
    const methodNote = nsc ? null : method ? `Method ${method[1] ?? method[2]}` : null;
    const mergedNote = merged.length ? `${merged.filter((k) => k !== "further").join(", ")} printed once for this row and ${pair?.[0] === name ? pair?.[1] : pair?.[0]}` : null;
    const requirements = clauses.join(";");
    const mainCell = take("main");
    const mainAps = /^(\d{2})$/.exec(mainCell);
    const withM = /^(\d{2}) with M \((\d)\); (\d{2}) with ML \((\d)\)$/.exec(mainCell);
    const nscNote = nsc ? `"Use NSC rating": ${mainCell} unweighted NSC points (levels, Life Orientation excluded, p. 14), not one of CPUT's APS methods` : null;
    const isEcpRow = / ECP$/.test(name);
    if (!isEcpRow) {
      const aps = nsc ? null : mainAps ? Number(mainAps[1]) : withM ? Number(withM[1]) : null;
      if (!nsc && aps === null) throw new Error(`cput-prospectus-2026: p. ${page} ${name}: APS "${mainCell}"`);
      rows.push(row(name, page, aps, requirements, [methodNote, nscNote, withM ? `Mathematical Literacy: ${withM[3]} (with Mathematics ${withM[2]} / Mathematical Literacy ${withM[4]})` : null, mergedNote, furtherNote]));
    }
    const ecpCell = take("ecp");
    if (ecpCell === "--" || ecpCell === "") continue;
    const ecpName = isEcpRow ? name : `${name} (ECP)`;
    const ecpRange = /^(\d{2})\s*[–-]\s*(\d{2})(?: (\d{2})\s*[–-]\s*(\d{2})(?: Waitlist)?)?$/.exec(ecpCell);
    const ecpWithM = /^(\d{2}) with M \((\d)\); (\d{2}) with ML \((\d)\)$/.exec(ecpCell);
    const ecpAps = ecpRange ? Number(ecpRange[1]) : ecpWithM ? Number(ecpWithM[1]) : null;
    if (ecpAps === null) throw new Error(`cput-prospectus-2026: p. ${page} ${name}: ECP "${ecpCell}"`);
    const shortName = name.replace(/ \(.*\)$/, "").replace(/^Diploma: Engineering: Industrial$/, "Diploma in Industrial Engineering");
    const concession = ecpConcession.includes(`${shortName} (ECP)`)
      ? "subject to space, also English (4) with Mathematics and Physical Sciences one at (4) and the other at (3) with at least 45%, or Technical Mathematics/Technical Sciences one at (5) and the other at (4) with at least 55% (table footnote)"
      : null;
    rows.push(
      row(ecpName, page, nsc ? null : ecpAps, requirements, [
        isEcpRow ? null : "the ECP column of the row",
        methodNote,
        nsc ? `"Use NSC rating": ECP ${ecpCell} unweighted NSC points, not one of CPUT's APS methods` : null,
        ecpRange && !nsc ? `ECP APS ${ecpRange[1]}-${ecpRange[2]}${ecpRange[3] ? `; ${ecpRange[3]}-${ecpRange[4]} waitlist` : ""}` : null,
        ecpWithM ? `Mathematical Literacy: ${ecpWithM[3]} (with Mathematics ${ecpWithM[2]} / Mathematical Literacy ${ecpWithM[4]})` : null,
        mergedNote,
        concession,
        furtherNote,
      ]),
    );
  }
  return rows;
}

export const document: OfficialDocument = {
  id: "cput-prospectus-2026",
  university_slug: "cape-peninsula-university-of-technology",
  witness_id: "cput-prospectus-2026",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/cput_2026.pdf",
  sha256: "bf157e3b2ceff54968f9f72e1be41f7e4f688634fdda208d47adc9e574193507",
  format: "pdf",
  intake_year: INTAKE,
  extract(pages) {
    const rows: ExtractedRow[] = [];
    pages.forEach((text, i) => {
      const page = i + 1;
      if (/QUALIFICATION\s+MINIMUM APS SCORE\s+METHOD/.test(text)) rows.push(...appliedSciences(text, page));
      else if (/QUALIFICATION\s+APS\s+METHOD\s+ENGLISH\s+MATHS\s+MATHS\s+ACC/.test(text)) rows.push(...business(text, page));
      else if (/QUALIFICATION\s+APS\s+MINIMUM ADMISSION/.test(text)) rows.push(...education(text, page));
      else if (/QUALIFICATION\s+\*\*\*APS score/.test(text)) rows.push(...health(text, page));
      else if (/QUALIFICATION\s+APS SCORE\s+ENGLISH\s+LANGUAGE/.test(text)) rows.push(...design(text, page));
      else if (/Mathematical Literacy \(ML\) is not accepted within the Faculty of Engineering/.test(text) && /^DEPARTMENT\s+QUALIFICATION/m.test(text)) rows.push(...engineering(text, page));
    });
    return rows;
  },
};
