// Stellenbosch University, 2026 Undergraduate prospectus (NSC or IEB), 16 pages, to press December 2024.
// Layout: two text columns per page (pdftotext -layout puts them side by side; the gutter moves from page to
// page), each programme a heading "<name> (<n> years)" (sometimes over two lines) followed by dash bullets:
// "An NSC aggregate of at least 60% (excluding Life Orientation)" (SU's average percentage: the scale of
// `su-2027`), then the subjects ("Mathematics 60%", "English OR Afrikaans (Home Language or First Additional
// Language) 50%"). Engineering and Education state their requirements once for the faculty ("Admission and
// selection"), and their programmes inherit them. Requirements that only apply to a university subject
// ("If you take Economics as a university subject, then also: Mathematics 60%") are kept in the note.
// The AgriSciences extended programmes (page 4) are a centred table with two "combinations" side by side:
// read by hand (hand/su-prospectus-2026.csv).
import type { ExtractedRow, OfficialDocument } from "../document.ts";

/** `||` (alternative whole routes) is not yet accepted by domain/requirements.ts on this branch: while it is
 * not, a row whose requirements need it gets requirements null and the routes in its note. */
const ROUTES_ACCEPTED = true;

const INTAKE = 2026;
const OFFICIAL = ["afrikaans", "english", "isindebele", "isixhosa", "isizulu", "sepedi", "sesotho", "setswana", "siswati", "tshivenda", "xitsonga"];
const LANGUAGE: Record<string, string> = { english: "english", afrikaans: "afrikaans", isixhosa: "isixhosa" };
const LEVEL: Record<string, string> = { "home language": "home-language", "first additional language": "first-additional-language", "second additional language": "second-additional-language" };
const SUBJECT: Record<string, string> = {
  mathematics: "mathematics",
  "mathematical literacy": "mathematical-literacy",
  "physical sciences": "physical-sciences",
  "life sciences": "life-sciences",
  "agricultural sciences": "agricultural-sciences",
  accounting: "accounting",
  "business studies": "business-studies",
  economics: "economics",
  history: "history",
  geography: "geography",
};

type Clause = string[];
type Route = Clause[];
type Translation = { aps: number; note?: string } | { none: true; routes?: Route[] } | { routes: Route[]; note?: string };

const norm = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/ \(Physics and Chemistry\)/g, "")
    .replace(/\s*\*\*$/, "")
    .trim();

/** One subject ("Mathematics", "English First Additional Language") as its slug, or null. */
function subjectSlug(name: string): string | null {
  const n = name.trim().toLowerCase();
  if (SUBJECT[n]) return SUBJECT[n];
  const m = /^(english|afrikaans|isixhosa) (home language|first additional language|second additional language)$/.exec(n);
  return m?.[1] && m[2] ? `${LANGUAGE[m[1]]}-${LEVEL[m[2]]}` : null;
}

/** "Mathematics 50% OR Mathematical Literacy 60%", "Physical Sciences OR Life Sciences 50%": one clause. */
function clauseOf(text: string): Clause | null {
  const lang = /^((?:English|Afrikaans|isiXhosa)(?: OR (?:English|Afrikaans|isiXhosa))*) \(Home Language or First Additional Language\) (\d+)%$/.exec(text);
  if (lang?.[1] && lang[2]) {
    return lang[1].split(" OR ").flatMap((l) => [`${LANGUAGE[l.toLowerCase()]}-home-language:${lang[2]}%`, `${LANGUAGE[l.toLowerCase()]}-first-additional-language:${lang[2]}%`]);
  }
  const options: string[] = [];
  let pending: string[] = [];
  for (const part of text.split(/ OR /)) {
    const pair = /^(English|Afrikaans) or (English|Afrikaans) (Home Language|First Additional Language) (\d+)%$/.exec(part);
    if (pair?.[1] && pair[2] && pair[3] && pair[4]) {
      for (const l of [pair[1], pair[2]]) options.push(`${subjectSlug(`${l} ${pair[3]}`)}:${pair[4]}%`);
      continue;
    }
    const m = /^(.+?) (\d+)%$/.exec(part);
    const slug = subjectSlug(m?.[1] ?? part);
    if (!slug) return null;
    if (!m) {
      pending.push(slug);
      continue;
    }
    for (const s of [...pending, slug]) options.push(`${s}:${m[2]}%`);
    pending = [];
  }
  return pending.length === 0 && options.length > 0 ? options : null;
}

const everyLanguage = (level: string, percent: string) => OFFICIAL.map((l) => `${l}-${level}:${percent}%`);

/** What one bullet states: the aggregate, or its subjects as alternative routes (usually one route of one clause). */
function translate(raw: string): Translation | null {
  const text = norm(raw);
  const aps = /aggregate of at least (\d+)%/.exec(text);
  if (aps?.[1]) {
    const below = /but below (\d+)%/.exec(text);
    return { aps: Number(aps[1]), note: below ? `aggregate "at least ${aps[1]}% but below ${below[1]}%"` : undefined };
  }
  if (/^A National Senior Certificate\.?$/.test(text)) return { none: true };
  const fourSubjects = /^A National Senior Certificate with at least (\d+)% in each of four school subjects \(excluding Life Orientation\)\.?$/.exec(text);
  if (fourSubjects?.[1]) return { none: true, routes: [Array.from({ length: 4 }, () => [`@other-subject:${fourSubjects[1]}%`])] };
  const anyLanguage = /^(Home Language|First Additional Language) (\d+)%$/.exec(text);
  if (anyLanguage?.[1] && anyLanguage[2]) return { routes: [[everyLanguage(LEVEL[anyLanguage[1].toLowerCase()] ?? "", anyLanguage[2])]] };
  const notEnglish = /^Home Language (\d+)% If the Home Language \(in the requirement above\) is not English, then also English First Additional Language (\d+)%$/.exec(text);
  if (notEnglish?.[1] && notEnglish[2]) {
    const others = OFFICIAL.filter((l) => l !== "english").map((l) => `${l}-home-language:${notEnglish[1]}%`);
    return { routes: [[[`english-home-language:${notEnglish[1]}%`]], [others, [`english-first-additional-language:${notEnglish[2]}%`]]] };
  }
  const twoOfThree = /^At least TWO of the following THREE languages \(Home Language or First Additional Language\) (\d+)%: English AND\/ ?OR Afrikaans AND\/ ?OR a third South African language\.?$/.exec(text);
  if (twoOfThree?.[1]) {
    // Two of three: English, Afrikaans and one third language; two third languages do not make two of the three.
    const p = twoOfThree[1];
    const both = (l: string) => [`${l}-home-language:${p}%`, `${l}-first-additional-language:${p}%`];
    const third = OFFICIAL.filter((l) => l !== "english" && l !== "afrikaans").flatMap(both);
    return {
      routes: [[both("english"), both("afrikaans")], [both("english"), third], [both("afrikaans"), third]],
      note: `two of English, Afrikaans and a third South African language (HL or FAL) at ${p}%: one route per pair`,
    };
  }
  const dependsOn = /^Mathematics (\d+)%;? (?:or|OR) (\d+)% \((.+)\)$/.exec(text);
  if (dependsOn?.[1] && dependsOn[2] && dependsOn[3]) {
    return { routes: [[[`mathematics:${dependsOn[1]}%`]]], note: `Mathematics ${dependsOn[1]}% or ${dependsOn[2]}% (${dependsOn[3]}): the lower recorded` };
  }
  // Diploma in Sustainable Development: two routes, the second with one of three further subjects.
  const twoRoutes = /^Mathematics (\d+)% OR Mathematical Literacy (\d+)% OR Mathematics (\d+)% or Mathematical Literacy (\d+)% AND (\d+)% for (.+)$/.exec(text);
  if (twoRoutes?.[6]) {
    const further = twoRoutes[6].split(" or ").map((s) => `${subjectSlug(s)}:${twoRoutes[5]}%`);
    if (further.some((f) => f.startsWith("null"))) return null;
    return {
      routes: [[[`mathematics:${twoRoutes[1]}%`, `mathematical-literacy:${twoRoutes[2]}%`]], [[`mathematics:${twoRoutes[3]}%`, `mathematical-literacy:${twoRoutes[4]}%`], further]],
    };
  }
  // Whole alternative routes: "Mathematics 70% OR Mathematics 60% and Accounting 70%", Engineering's language rule.
  const parts = text.split(/,? OR /).map((p) => p.replace(/, with no Afrikaans requirement,?$/, ""));
  if (parts.length > 1 && parts.some((p) => / (with|and) /.test(p))) {
    const routes: Route[] = [];
    for (const part of parts) {
      const clauses = part.split(/ with | and /).map(clauseOf);
      if (clauses.some((c) => c === null)) return null;
      routes.push(clauses as Clause[]);
    }
    return { routes };
  }
  const clause = clauseOf(text);
  return clause ? { routes: [[clause]] } : null;
}

const cross = (a: Route[], b: Route[]): Route[] => a.flatMap((x) => b.map((y) => [...x, ...y]));
const routeText = (routes: Route[]) => routes.map((r) => r.map((c) => c.join("|")).join(";")).join("||");

type Line = { text: string; page: number; indent: number };

/** The page's lines in reading order: the left column, then the right; `indent` is counted from the column's edge. */
function readingOrder(page: string, pageNumber: number): Line[] {
  const lines = page.split("\n");
  const starts = new Map<number, number>();
  for (const line of lines) {
    for (const m of line.matchAll(/(?<=\s\s)\S/g)) if (m.index >= 50 && m.index <= 100) starts.set(m.index, (starts.get(m.index) ?? 0) + 1);
  }
  const gutter = Math.min(...[...starts].filter(([, n]) => n >= 5).map(([p]) => p));
  const lead = (s: string) => s.length - s.trimStart().length;
  if (!Number.isFinite(gutter)) return lines.map((text) => ({ text: text.trim(), page: pageNumber, indent: lead(text) }));
  const left: Line[] = [];
  const right: Line[] = [];
  for (const line of lines) {
    let split = line.length;
    if (line.slice(0, gutter - 6).trim() === "") split = lead(line);
    else {
      for (const m of line.matchAll(/[ \t]{2,}(?=\S)/g)) {
        const end = m.index + m[0].length;
        if (end >= gutter - 6 && end <= gutter + 14) {
          split = end;
          break;
        }
      }
    }
    const leftText = line.slice(0, split);
    left.push({ text: leftText.trim(), page: pageNumber, indent: lead(leftText) });
    right.push({ text: line.slice(split).trim(), page: pageNumber, indent: split - gutter });
  }
  return [...left, ...right];
}

const YEARS = /\s*\((?:\d+|\+1) years?\)$/;
const TITLE_END = /\((?:\d+|\+1) years?\)$|\((?:four|three)-year\)$/;
const PROGRAMME_START = /^(B[A-Z]|BA |BSc|Bachelor|LLB|MBChB|Diploma|Higher Certificate|Advanced Diploma|Postgraduate|Extended|BSc|# )/;
const HEADING = /^(FACULTY OF\b|[A-Z][A-Z &,'’#:()-]{8,}$|BEng PROGRAMMES$)/;
const MARKER = /^(Similar programme|Career opportunities|Focal areas?\b|Fields? of study|Routes:|Please note|Postgraduate (fields|Studies)|Related professions)/;
const CONDITIONAL = /^(If you (take|wish to take)\b|Mathematics \(Ed\) is compulsory)/;
const HAND_READ = /^Extended Curriculum Programmes \(ECPs\)$/;

type Block = { title: string; page: number; lines: Line[] };

/** The stream cut into programme blocks; a block starting with "FACULTY OF" is the faculty's introduction. */
function blocksOf(stream: Line[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  for (let i = 0; i < stream.length; i++) {
    const line = stream[i] as Line;
    const { text } = line;
    if (text === "" || /^\d+$/.test(text)) {
      current?.lines.push(line);
      continue;
    }
    let title: string | null = null;
    if (TITLE_END.test(text) && !/^[-•·]/.test(text)) {
      title = text;
      if (!PROGRAMME_START.test(text)) {
        // The second line of a two-line heading: its first line is the last non-empty line of the block.
        const lines = current?.lines ?? [];
        let k = lines.length - 1;
        while (k >= 0 && (lines[k] as Line).text === "") k--;
        if (k >= 0 && current) {
          title = `${(lines[k] as Line).text} ${text}`;
          lines.splice(k);
        }
      }
    } else if (HAND_READ.test(text)) title = `hand:${text}`;
    if (title !== null) {
      current = { title, page: line.page, lines: [] };
      blocks.push(current);
    } else if (HEADING.test(text) && !(current?.title === "FACULTY" && current.lines.every((l) => /^[A-Z &]*$/.test(l.text)))) {
      current = text.startsWith("FACULTY OF") ? { title: "FACULTY", page: line.page, lines: [] } : null;
      if (current) blocks.push(current);
    } else current?.lines.push(line);
  }
  return blocks;
}

type Field = { field: string; bullets: string[] };
type Reading = { aps: number | "none" | null; routes: Route[] | null; notes: string[]; hasBullets: boolean; fields: Field[] | null };

/** What a block's bullets state. */
function readBlock(block: Block): Reading {
  const items: { text: string; conditional: string | null }[] = [];
  const notes: string[] = [];
  const prose: string[] = [];
  let condition: string | null = null;
  let inItem = false;
  let itemIndent = 0;
  let fields: Field[] | null = null;
  for (const { text, indent } of block.lines) {
    if (text === "" || /^\d+$/.test(text)) continue;
    if (fields) {
      const field = /^- (.+):$/.exec(text);
      if (field?.[1]) fields.push({ field: field[1], bullets: [] });
      else if (/^•/.test(text)) fields.at(-1)?.bullets.push(text.replace(/^•\s*/, ""));
      else if (MARKER.test(text) && fields.length > 0) break;
      continue;
    }
    if (MARKER.test(text)) {
      if (/^Fields? of study/.test(text) && items.some((i) => /See additional requirements for each field of study/.test(i.text))) {
        fields = [];
        continue;
      }
      break;
    }
    if (CONDITIONAL.test(text)) {
      condition = /^Mathematics \(Ed\)/.test(text) ? "teaching modules to choose (some with further requirements):" : text;
      inItem = false;
      continue;
    }
    const bullet = /^[-•]\s+(.*)$/.exec(text);
    if (bullet?.[1] !== undefined) {
      const previous = items.at(-1);
      // A bullet broken in two by the layout ("... OR Afrikaans or" / "- English First Additional Language 70%"),
      // or the condition that completes the bullet before it ("If the Home Language ... is not English").
      if (previous && inItem && (/\b(or|OR)$/.test(previous.text) || /^If the Home Language/.test(bullet[1]))) previous.text += ` ${bullet[1]}`;
      else if (previous?.conditional && text.startsWith("•")) previous.text += `: ${bullet[1]}`;
      else items.push({ text: bullet[1], conditional: condition });
      inItem = true;
      itemIndent = indent;
    } else if (inItem && indent > itemIndent && !/^(AND|OR)$/.test(text) && !/^Learners who were taught in/.test(text)) {
      const previous = items.at(-1);
      if (previous) previous.text += ` ${text}`;
    } else {
      inItem = false;
      prose.push(text);
      if (/^Learners who were taught in/.test(text)) items.push({ text: `@${text}`, conditional: null });
    }
  }
  const aboutAdmission = /places in the programme|[Pp]lace for|candidates are selected|auditions? and\/or interviews/;
  const proseText = norm(prose.join(" "));
  for (const sentence of proseText.split(/(?<=\.)\s+/)) if (aboutAdmission.test(sentence)) notes.push(sentence);
  const selection = /Selection mark = (.+?\)) The Matric average is calculated from (.+?)\. The maximum score is (\d+)/.exec(proseText);
  if (selection) notes.push(`selection mark = ${selection[1]}, the Matric average from ${selection[2]}; maximum ${selection[3]}`);
  let aps: Reading["aps"] = null;
  let routes: Route[] = [[]];
  let stated = false;
  let hasBullets = false;
  // Education: one pair of language clauses per language of teaching, folded into two clauses (a learner holds
  // each language once, so the second clause is always a second language).
  let taught: { first: Set<string>; second: Set<string>; which: string[] } | null = null;
  let pair: Clause[] = [];
  const closePair = () => {
    if (taught && pair.length === 2) {
      for (const o of pair[0] ?? []) taught.first.add(o);
      for (const o of pair[1] ?? []) taught.second.add(o);
    }
    pair = [];
  };
  for (const item of items) {
    if (item.text.startsWith("@Learners who were taught in")) {
      closePair();
      taught ??= { first: new Set(), second: new Set(), which: [] };
      taught.which.push(item.text.slice(1));
      continue;
    }
    const text = norm(item.text);
    if (item.conditional) {
      const condition = norm(item.conditional);
      const last = notes.at(-1);
      if (last?.startsWith(condition)) notes[notes.length - 1] = `${last}, ${text}`;
      else notes.push(`${condition} ${text}`);
      continue;
    }
    hasBullets = true;
    if (/^See additional requirements for each field of study/.test(text)) continue;
    const t = translate(text);
    if (t === null) {
      notes.push(text.replace(/\.$/, ""));
      continue;
    }
    if ("aps" in t) {
      aps = t.aps;
      if (t.note) notes.push(t.note);
      continue;
    }
    if ("none" in t) {
      aps = "none";
      if (!t.routes) continue;
    }
    if ("note" in t && t.note) notes.push(t.note);
    if (taught && t.routes?.length === 1 && t.routes[0]?.length === 1) {
      pair.push(t.routes[0][0] as Clause);
      continue;
    }
    stated = true;
    routes = cross(routes, t.routes ?? [[]]);
  }
  closePair();
  if (taught) {
    stated = true;
    routes = cross(routes, [[[...taught.first], [...taught.second]]]);
    notes.push("languages by the language the learner was taught in (English, Afrikaans or isiXhosa): that language at Home Language 60% and one of the other two at 50%");
  }
  if (!stated && aps !== null) routes = []; // the requirements are stated in full, and name no subject
  return { aps, routes: stated || aps !== null ? routes : null, notes, hasBullets, fields };
}

function row(name: string, page: number, reading: Pick<Reading, "aps" | "routes" | "notes">): ExtractedRow {
  const notes = [...reading.notes];
  let requirements: string | null = null;
  if (reading.routes !== null) {
    if (reading.routes.length === 0 || reading.routes.every((r) => r.length === 0)) requirements = "none";
    else if (reading.routes.length === 1 || ROUTES_ACCEPTED) requirements = routeText(reading.routes);
    else notes.push(`alternative routes (requirements left empty until '||' is accepted): ${routeText(reading.routes)}`);
  }
  return {
    name_as_written: name,
    code: null,
    intake_year: INTAKE,
    min_aps: reading.aps,
    requirements,
    page,
    line: null,
    read_by: "script",
    note: notes.length > 0 ? notes.join("; ") : null,
  };
}

function extract(pages: readonly string[]): ExtractedRow[] {
  const stream = pages.flatMap((page, i) => readingOrder(page, i + 1));
  const rows: ExtractedRow[] = [];
  let faculty: Reading | null = null;
  for (const block of blocksOf(stream)) {
    if (block.title.startsWith("hand:")) continue;
    if (block.title === "FACULTY") {
      const reading = readBlock(block);
      faculty = typeof reading.aps === "number" ? reading : null;
      continue;
    }
    const printed = block.title.replace(YEARS, "").replace(/\s+/g, " ").trim();
    const name = printed.replace(/#$/, "");
    const prose = block.lines.map((l) => l.text).join(" ");
    if (/^See .+ under the Faculty of .+, page \d+\.$/.test(norm(prose))) continue; // a pointer to the programme's own entry
    const reading = readBlock(block);
    if (/#$/.test(printed)) reading.notes.push("# also offered as an extended curriculum programme");
    const inherits = !/Extended Curriculum|ECP|Postgraduate/i.test(name);
    if (inherits && faculty && !reading.hasBullets) {
      rows.push(row(name, block.page, { aps: faculty.aps, routes: faculty.routes, notes: [...faculty.notes, ...reading.notes] }));
      continue;
    }
    const both = /Candidates for the (\w+) and the (\w+) may come into consideration for the extended curriculum programme/.exec(prose.replace(/\s+/g, " "));
    if (both?.[1] && both[2]) {
      for (const base of [both[1], both[2]]) rows.push(row(`${name}: ${base}`, block.page, { ...reading, notes: [...reading.notes] }));
      continue;
    }
    if (reading.fields && reading.fields.length > 0 && reading.routes) {
      // One row per field of study, each with the field's own subjects.
      for (const { field, bullets } of reading.fields) {
        const own = bullets.map((b) => translate(b));
        const extra = own.flatMap((t) => (t && "routes" in t && t.routes.length === 1 ? (t.routes[0] ?? []) : []));
        rows.push(row(`${name}: ${field}`, block.page, { aps: reading.aps, routes: cross(reading.routes, [extra]), notes: reading.notes }));
      }
      continue;
    }
    if (reading.aps === null && reading.routes === null) {
      // Nothing on the NSC scale: the block's own words, up to its first list of similar programmes or careers.
      const text = block.lines.filter((l) => !/^\d+$/.test(l.text)).map((l) => l.text).join(" ");
      const intro = norm(text.split(/Similar programme|Career opportunities|Focal area|Indemnity/)[0] ?? "");
      reading.notes = intro ? [intro] : [];
    }
    rows.push(row(name, block.page, reading));
  }
  return rows;
}

export const document: OfficialDocument = {
  id: "su-prospectus-2026",
  university_slug: "stellenbosch-university",
  witness_id: "su-prospectus-2026",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/su_ug_prospectus_2026.pdf",
  sha256: "69b28aac6cbf746990b7214eca1ec0f27e94b014606b1bd05323caf3bc49eb41",
  format: "pdf",
  intake_year: INTAKE,
  extract,
};
