// UCT's "2026 Undergraduate Prospectus" as a text extraction (kamomasela/Unipath-app, uct_ug_prospectus_2026.txt),
// whose pages carry the production note "NB : ALL COPY IS LAST YEARS - ONLY ALL YEARS HAVE BEEN CHANGE UP BY 1
// YEARS." (lines 819, 2165, 3107, 6416, 6741): the copy is the 2025 prospectus's with every year moved up by one,
// so its statements are recorded for the 2025 intake (see research/universities/university-of-cape-town/NOTES.md).
// The text is one "page"; rows are located by line. min_aps is Band A (the FPS of guaranteed admission, on the
// /600 APS in Commerce, EBE, Humanities and Law); for Health Sciences the APS sub-minimum out of 600. The
// Engineering & the Built Environment tables are interleaved with their headings in this text (two columns
// read across), so those rows are read by hand (hand/uct-prospectus-2025-text.csv).
import type { ExtractedRow, OfficialDocument } from "../document.ts";

const INTAKE = 2025;
const ENGLISH_50_60 = "english-home-language:50%|english-first-additional-language:60%";

type Lines = readonly string[];

/** The 0-based index of the first line at or after `from` matching `pattern`, or -1. */
function find(lines: Lines, pattern: RegExp, from = 0, to = lines.length): number {
  for (let i = Math.max(0, from); i < Math.min(lines.length, to); i++) if (pattern.test(lines[i] ?? "")) return i;
  return -1;
}

/** The text of lines [from, to) joined by spaces. */
const span = (lines: Lines, from: number, to: number) => lines.slice(from, to).join(" ").replace(/\s+/g, " ");

const row = (name: string, line: number, min_aps: number | null, requirements: string | null, note: string | null): ExtractedRow => ({
  name_as_written: name,
  code: null,
  intake_year: INTAKE,
  min_aps,
  requirements,
  page: null,
  line: line + 1,
  read_by: "script",
  note,
});

/** Health Sciences: "Minimum subject requirements ... Sub-minimum APS of N." then Bands A, B, C. */
function healthSciences(lines: Lines): ExtractedRow[] {
  const rows: ExtractedRow[] = [];
  const heading = /^BACHELOR OF (MEDICINE AND BACHELOR OF SURGERY – MBCHB|SCIENCE IN [A-Z -]+)$/;
  for (let i = 0; i < lines.length; i++) {
    const name = lines[i]?.trim() ?? "";
    const first = find(lines, /\S/, i + 1);
    if (!heading.test(name) || !/^Minimum subject requirements/.test(lines[first] ?? "")) continue;
    const end = find(lines, /Sub-minimum APS of \d+\./, i);
    if (end < 0 || end - i > 6) continue;
    const text = span(lines, first, end + 1);
    const aps = Number(/Sub-minimum APS of (\d+)\./.exec(text)?.[1]);
    const clauses: string[] = [];
    const both = /Mathematics and Physical Sciences at (\d+)%/.exec(text);
    if (both) clauses.push(`mathematics:${both[1]}%`, `physical-sciences:${both[1]}%`);
    const maths = /Mathematics at (\d+)%( or Mathematical Literacy at (\d+)%)?/.exec(text);
    if (maths) clauses.push(maths[3] ? `mathematics:${maths[1]}%|mathematical-literacy:${maths[3]}%` : `mathematics:${maths[1]}%`);
    const science = /Physical Sciences or Life Sciences at (\d+)%/.exec(text);
    if (science) clauses.push(`physical-sciences:${science[1]}%|life-sciences:${science[1]}%`);
    const english = /English \(Home or First\s*Additional Language\) at (\d+)%/.exec(text);
    if (english) clauses.push(`english-home-language:${english[1]}%|english-first-additional-language:${english[1]}%`);
    const next = /(\d+)% for the next three\s*best subjects/.exec(text);
    if (next) clauses.push(...Array(3).fill(`@other-subject:${next[1]}%`));
    const bands = span(lines, end + 1, end + 50);
    const a = /Guaranteed admission (\d+) FPS or above/.exec(bands)?.[1];
    const b = /Probable admission (\d+) WPS or above/.exec(bands)?.[1];
    const c = /Possible admission (.*?) Meet minimum subject requirements/.exec(bands.slice(bands.indexOf("Possible admission")))?.[1];
    rows.push(
      row(
        name,
        i,
        aps,
        clauses.join(";"),
        `APS sub-minimum ${aps} out of 600 (min_aps); Health Sciences FPS out of 900 (APS plus the three NBT scores): Band A (guaranteed) FPS ${a}, Band B (probable) WPS ${b}, Band C (redress categories only) ${c?.replace(/ or above/g, "")}; NBT AL, QL and Mathematics required${maths?.[3] ? "; Mathematical Literacy route as stated" : ""}`,
      ),
    );
  }
  return rows;
}

/** Commerce: the general table, the Computer Science / Statistics and Data Science table, the Actuarial Science / Quantitative Finance table, and the specialisations listed on p.29. */
function commerce(lines: Lines): ExtractedRow[] {
  const general = find(lines, /^All specialisations except for Actuarial Science and Computer Science$/);
  if (general < 0) return [];
  const generalText = span(lines, general, general + 45);
  const a = /Guaranteed admission FPS of (\d+) or above\. .*? Mathematics (\d+)% English HL (\d+)% English FAL (\d+)%/.exec(generalText);
  const b = /Probable admission WPS of (\d+) or above/.exec(generalText)?.[1];
  const c = /FPS of (\d+ to \d+)\./.exec(generalText)?.[1];
  if (!a) return [];
  const english = `english-home-language:${a[3]}%|english-first-additional-language:${a[4]}%`;
  const generalReq = `mathematics:${a[2]}%;${english}`;
  const generalNote = `Band A (guaranteed) FPS ${a[1]}; Band B (probable) WPS ${b}; Band C (redress categories, Education Development Unit only) FPS ${c}; NBT AL and QL Upper Intermediate or above`;
  const rows = [
    row("Bachelor of Business Science and Bachelor of Commerce (all specialisations except Actuarial Science and Computer Science): Bachelor of Business Science", general - 1, Number(a[1]), generalReq, generalNote),
    row("Bachelor of Business Science and Bachelor of Commerce (all specialisations except Actuarial Science and Computer Science): Bachelor of Commerce", general - 1, Number(a[1]), generalReq, generalNote),
  ];
  // The two special tables, read by their own figures: the one at FPS 435 with Mathematics 70% (Computer Science
  // & Statistics and Data Science) and the one at FPS 500 with Mathematics 80% (Actuarial Science and Quantitative Finance).
  const tables = span(lines, general + 45, general + 180);
  const cs = /Guaranteed admission FPS of (435) or above\. NBT scores .*? Mathematics (70)% English HL (\d+)% English FAL (\d+)%/.exec(tables);
  const csB = /Probable admission WPS of (\d+) or above\. NBT scores of Upper Intermediate or above for AL & QL Mathematics 70%/.exec(tables)?.[1];
  const act = /Guaranteed admission FPS of (500) or above\. .*? Mathematics (80)% English HL (\d+)% English FAL (\d+)%/.exec(tables);
  const actB = /WPS of (\d+) or above\. NBT scores of Upper Intermediate or above for AL & QL Mathematics 80%/.exec(tables)?.[1];
  const actC = /FPS of (\d+ to \d+)\. NBT scores of Upper Intermediate or above for AL & QL Mathematics 80%/.exec(tables)?.[1];
  const csLabel = /ONLY Computer Science & Statistics and Data Science/.test(tables);
  const actLabel = /ONLY Actuarial Science and Quantitative Finance/.test(tables);
  const list = find(lines, /^IGCSE, AS-LEVEL, A-LEVEL, NSSC AND IB DIPLOMA APPLICANTS$/, general);
  if (list < 0) return rows;
  let degree = "";
  for (let i = list + 1; i < list + 40; i++) {
    const text = lines[i]?.trim() ?? "";
    if (text === "") continue;
    if (/^Bachelor of Business Science$/.test(text) && /^specialising in:$/.test(lines[i + 1] ?? "")) {
      degree = "Bachelor of Business Science specialising in";
      i++;
      continue;
    }
    if (/^Bachelor of Commerce specialising in:$/.test(text)) degree = "Bachelor of Commerce specialising in";
    else if (/^BBusSc\/BCom specialising in:$/.test(text)) degree = "BBusSc/BCom specialising in";
    else if (/^MINIMUM SUBJECT REQUIREMENTS$/.test(text)) break;
    else if (degree) {
      const name = `${degree} ${text}`;
      if (/Actuarial Science|Quantitative Finance/.test(text)) {
        if (act && actLabel)
          rows.push(
            row(name, i, Number(act[1]), `mathematics:${act[2]}%;english-home-language:${act[3]}%|english-first-additional-language:${act[4]}%`, `NSC table "ONLY Actuarial Science and Quantitative Finance": Band A (guaranteed) FPS ${act[1]}; Band B (probable) WPS ${actB}; Band C (redress categories, Education Development Unit only) FPS ${actC}; NBT AL and QL Upper Intermediate or above (Proficient for English First Additional Language applicants)`),
          );
      } else if (/Computer Science|Statistics and Data Science/.test(text)) {
        if (cs && csLabel)
          rows.push(
            row(name, i, Number(cs[1]), `mathematics:${cs[2]}%;english-home-language:${cs[3]}%|english-first-additional-language:${cs[4]}%`, `NSC table "ONLY Computer Science & Statistics and Data Science Specialisation": Band A (guaranteed) FPS ${cs[1]}; Band B (probable) WPS ${csB}; Band C (redress categories, Education Development Unit only) FPS 430 to 434; NBT AL and QL Upper Intermediate or above`),
          );
      } else rows.push(row(name, i, Number(a[1]), generalReq, `NSC table "All specialisations except for Actuarial Science and Computer Science": ${generalNote}`));
    }
  }
  return rows;
}

/** Humanities: each qualification's "Minimum requirements" paragraph and, where there are bands, its Band A. */
function humanities(lines: Lines): ExtractedRow[] {
  const start = find(lines, /^ADMISSION REQUIREMENTS BY QUALIFICATION$/);
  if (start < 0) return [];
  const at = (pattern: RegExp, from = start) => find(lines, pattern, from, start + 320);
  const rows: ExtractedRow[] = [];
  const minimum = (from: number, must: RegExp) => {
    for (let i = at(/^Minimum requirements:/, from); i >= 0; i = at(/^Minimum requirements:/, i + 1)) {
      const text = span(lines, i, i + 6);
      if (must.test(text)) return { line: i, text };
    }
    return null;
  };
  const fps = (text: string) => Number(/FPS (\d+) with/.exec(text)?.[1]);
  const bandA = (from: number) => Number(/Guaranteed admission FPS (\d+) or above/.exec(span(lines, from, from + 40))?.[1]);
  const englishOf = (text: string) => (/50% for English \(HL\) or 60% for English \(FAL\)/.test(text) ? ENGLISH_50_60 : null);

  const fineArt = at(/^BACHELOR OF ARTS IN FINE ART \(BA\(FA\)\)$/);
  const fa = fineArt >= 0 ? minimum(fineArt, /portfolio evaluation/) : null;
  if (fa) rows.push(row("BACHELOR OF ARTS IN FINE ART (BA(FA))", fineArt, fps(fa.text), englishOf(fa.text), `Minimum requirements: FPS ${fps(fa.text)}, NBT AL Intermediate, satisfactory portfolio; no bands: "Possible admission FPS 380 or above"; the portfolio is the leading indicator`));

  const baBsocsc = at(/^BACHELOR OF ARTS \(BA\) AND BACHELOR OF SOCIAL SCIENCE$/);
  const ba = baBsocsc >= 0 ? minimum(baBsocsc, /English \(FAL\)\. ELIGIBLE/) : null;
  if (ba) {
    const a = bandA(ba.line);
    const note = `Band A (guaranteed) FPS ${a}, NBT AL Proficient; Band B (probable) WPS 450, NBT AL Upper Intermediate; Band C (redress categories) FPS ${fps(ba.text)} (the stated minimum), NBT AL Intermediate`;
    rows.push(row("BACHELOR OF ARTS (BA) AND BACHELOR OF SOCIAL SCIENCE (BSocSc): Bachelor of Arts", baBsocsc, a, englishOf(ba.text), note));
    rows.push(row("BACHELOR OF ARTS (BA) AND BACHELOR OF SOCIAL SCIENCE (BSocSc): Bachelor of Social Science", baBsocsc, a, englishOf(ba.text), note));
  }

  const ppe = at(/^BACHELOR OF SOCIAL SCIENCE IN PHILOSOPHY, POLITICS$/);
  const ppeMin = ppe >= 0 ? minimum(ppe, /NSC Mathematics 60%/) : null;
  if (ppe >= 0 && ppeMin) {
    const maths = /NSC Mathematics (\d+)%/.exec(ppeMin.text)?.[1];
    rows.push(row("BACHELOR OF SOCIAL SCIENCE IN PHILOSOPHY, POLITICS AND ECONOMICS (BSocSc) (PPE)", ppe, bandA(ppe), `mathematics:${maths}%;${englishOf(ppeMin.text)}`, `Band A (guaranteed) FPS ${bandA(ppe)}, NBT AL Proficient and QL Upper Intermediate; the minimum paragraph: FPS ${fps(ppeMin.text)}, Mathematics ${maths}%`));
  }

  const theatre = at(/^BACHELOR OF ARTS IN THEATRE & PERFORMANCE$/);
  const tp = theatre >= 0 ? minimum(theatre, /degree study.*Satisfactory performance in an audition\./) : null;
  if (tp) rows.push(row("BACHELOR OF ARTS IN THEATRE & PERFORMANCE (BA(T&P))", theatre, fps(tp.text), englishOf(tp.text), `Minimum requirements: FPS ${fps(tp.text)}, NBT AL Intermediate, satisfactory audition; no bands ("Possible admission FPS 380 or above"); the audition is the leading indicator`));

  const bsw = at(/^BACHELOR OF SOCIAL WORK \(BSW\)$/);
  const bswMin = bsw >= 0 ? minimum(bsw, /English \(FAL\)/) : null;
  if (bswMin) rows.push(row("BACHELOR OF SOCIAL WORK (BSW)", bsw, bandA(bsw), englishOf(bswMin.text), `Band A (guaranteed) FPS ${bandA(bsw)}, NBT AL Proficient; Band B WPS 450; Band C (redress categories) FPS ${fps(bswMin.text)} (the stated minimum); an admissions interview may be required`));

  const bmus = at(/^BACHELOR OF MUSIC \(BMUS\)$/);
  const bmusMin = bmus >= 0 ? minimum(bmus, /music theory test/) : null;
  if (bmusMin) {
    const music = /NSC Music (\d+)% or above/.exec(span(lines, bmusMin.line, bmusMin.line + 30))?.[1];
    rows.push(row("BACHELOR OF MUSIC (BMUS)", bmus, fps(bmusMin.text), `${englishOf(bmusMin.text)}${music ? `;music:${music}%` : ""}`, `Minimum requirements: FPS ${fps(bmusMin.text)}, NBT AL Intermediate, audition, interview and music theory test; subject requirements: NSC Music ${music}% or Unisa Music Theory Grade V and Practical Grade VII (alternatives to NSC Music not expressible)`));
  }

  for (const [pattern, name] of [
    [/^DIPLOMA IN MUSIC PERFORMANCE \(DMP\)$/, "DIPLOMA IN MUSIC PERFORMANCE (DMP)"],
    [/^DIPLOMA IN THEATRE & PERFORMANCE \(DTP\)$/, "DIPLOMA IN THEATRE & PERFORMANCE (DTP)"],
  ] as const) {
    const i = at(pattern);
    const min = i >= 0 ? minimum(i, /NSC endorsed for diploma study/) : null;
    if (min) rows.push(row(name, i, null, englishOf(min.text), "Minimum requirements: NSC endorsed for diploma study, NBT AL Intermediate, audition; no points score stated"));
  }
  return rows;
}

/** Law: the 4-year undergraduate LLB table (above its heading in this text). */
function law(lines: Lines): ExtractedRow[] {
  const rule = find(lines, /^As a general rule, no more than ten international applicants will be accepted into the$/);
  const heading = find(lines, /^ADMISSION TO THE 4-YEAR UNDERGRADUATE LLB$/);
  if (rule < 0 || heading < 0) return [];
  const text = span(lines, rule, rule + 50);
  const a = /Guaranteed admission (\d+) FPS or above/.exec(text)?.[1];
  const b = /Probable Admission (\d+) WPS or above/.exec(text)?.[1];
  const c = /Possible admission (\d+) FPS or above/.exec(text)?.[1];
  const intl = /Probable admission (\d+) FPS or above .*? International applicants/.exec(text)?.[1];
  if (!a) return [];
  return [row("4-YEAR UNDERGRADUATE LLB", heading, Number(a), "none", `Band A (guaranteed) FPS ${a}, NBT AL Proficient and QL Intermediate or above; Band B (probable) WPS ${b}; Band C (redress categories) FPS ${c}, NBT AL and QL Proficient; international applicants FPS ${intl}; no subject requirements stated (table at line ${rule + 1})`)];
}

/** Science: one FPS out of 800 (Mathematics and Physical Sciences doubled), not on the /600 APS. */
function science(lines: Lines): ExtractedRow[] {
  const i = find(lines, /^The FPS \(a score out of 800\) is calculated as the sum of$/);
  if (i < 0) return [];
  const text = span(lines, i, i + 80);
  const a = /FPS of (\d+) or above Mathematics (\d+)% or above and Physical Sciences (\d+)% or above/.exec(text);
  const b = /WPS of (\d+) or above/.exec(text)?.[1];
  const c = /Admission Possible FPS of (\d+) or above/.exec(text)?.[1];
  if (!a) return [];
  return [row("Faculty of Science (Bachelor of Science)", i, null, `mathematics:${a[2]}%;physical-sciences:${a[3]}%`, `FPS out of 800 (Mathematics and Physical Sciences doubled): Band A (guaranteed) ${a[1]}, Band B WPS ${b}, Band C ${c}; not on the /600 APS, so no min_aps; Information Technology or Life Sciences may be doubled instead of Physical Sciences for some majors`)];
}

export const document: OfficialDocument = {
  id: "uct-prospectus-2025-text",
  university_slug: "university-of-cape-town",
  witness_id: "uct-prospectus-2025-text",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/uct_ug_prospectus_2026.txt",
  sha256: "3bfb5ff8c87600f357daef602dfbf02a17b1df4c61b8a8ac14afd435a283cad5",
  format: "text",
  intake_year: INTAKE,
  extract(pages) {
    const lines = (pages[0] ?? "").split("\n").map((l) => l.replace(/\f/g, ""));
    return [...commerce(lines), ...healthSciences(lines), ...humanities(lines), ...law(lines), ...science(lines)];
  },
};
