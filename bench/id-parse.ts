// Benchmark of the ID number parser against the peer npm packages (dev dependencies, bench only):
// 1. parses per second on the same generated inputs, as ratios to ours;
// 2. which cases of the shared case table each peer gets wrong.
// Run alone with `npx tsx bench/id-parse.ts`, or call benchIdParse() from the bench runner.

import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { validate as validatorValidate } from "south-african-id-validator";
import { stdnum } from "stdnum";
import { buildIdNumber, parseIdNumber, type ParsedId } from "../domain/id-number.ts";
import { ID_NUMBER_CASES, POLICY_TOPICS, type IdNumberCase } from "../domain/id-number-cases.ts";

// These three are CommonJS/UMD with no usable ESM named exports (and two have no types), so they are
// loaded with require and given the shape their source code returns.
const require = createRequire(import.meta.url);
const saIdParser = require("south-african-id-parser") as typeof import("south-african-id-parser");
const saIdInfo = require("south-african-id-info") as (id: unknown) => {
  valid: boolean;
  birthDate?: Date;
  gender?: "male" | "female";
  citizenship?: string;
};
const validSaId = require("valid-south-african-id") as (id: unknown) => boolean;

/** What a contender says about an input; fields it does not decode are undefined. */
interface Verdict {
  valid: boolean;
  date_of_birth?: string;
  gender?: "male" | "female";
  citizenship?: string;
}

interface Contender {
  name: string;
  decodes: string;
  /** For the speed run: one call as a user would make it. */
  run: (input: string) => unknown;
  /** For the case table; the clock is pinned to the case's reference date around this call. */
  verdict: (input: unknown, referenceDate: string) => Verdict;
}

const SPEED_REFERENCE_DATE = "2026-01-01";

const stdnumZaIdnr = (() => {
  const validator = stdnum.ZA?.idnr;
  if (!validator) throw new Error("stdnum has no ZA.idnr validator");
  return validator;
})();

function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function localNoon(isoDate: string): Date {
  const [year = 0, month = 1, day = 1] = isoDate.split("-").map(Number);
  return new Date(year, month - 1, day, 12);
}

function fromOurs(result: ParsedId): Verdict {
  return result.valid
    ? {
        valid: true,
        date_of_birth: result.date_of_birth ?? undefined,
        gender: result.gender ?? undefined,
        citizenship: result.citizenship ?? undefined,
      }
    : { valid: false };
}

const speedReferenceForValidator = localNoon(SPEED_REFERENCE_DATE);

const CONTENDERS: readonly Contender[] = [
  {
    name: "ours (domain/id-number.ts)",
    decodes: "date, gender, citizenship, error codes",
    run: (input) => parseIdNumber(input, SPEED_REFERENCE_DATE),
    verdict: (input, referenceDate) => fromOurs(parseIdNumber(input, referenceDate)),
  },
  {
    name: "south-african-id-parser 2.0.0",
    decodes: "date, gender, citizen yes/no",
    run: (input) => saIdParser.parse(input),
    verdict: (input) => {
      const result = saIdParser.parse(input as string);
      if (!result.isValid || !("dateOfBirth" in result)) return { valid: false };
      return {
        valid: true,
        date_of_birth: localDate(result.dateOfBirth),
        gender: result.isMale ? "male" : "female",
        ...(result.isSouthAfricanCitizen ? { citizenship: "citizen" } : {}),
      };
    },
  },
  {
    name: "south-african-id-validator 2.0.0",
    decodes: "date, gender, citizenship, one error code",
    run: (input) => validatorValidate(input, { referenceDate: speedReferenceForValidator }),
    verdict: (input, referenceDate) => {
      const result = validatorValidate(input as string, { referenceDate: localNoon(referenceDate) });
      if (!result.valid) return { valid: false };
      return { valid: true, date_of_birth: localDate(result.dateOfBirth), gender: result.gender, citizenship: result.citizenship };
    },
  },
  {
    name: "south-african-id-info 1.0.1",
    decodes: "date, gender, citizenship",
    run: (input) => saIdInfo(input),
    verdict: (input) => {
      const result = saIdInfo(input);
      if (!result.valid || result.birthDate === undefined) return { valid: false };
      const citizenship = result.citizenship === "SA citizen" ? "citizen" : "permanent_resident";
      return { valid: true, date_of_birth: localDate(result.birthDate), ...(result.gender ? { gender: result.gender } : {}), citizenship };
    },
  },
  {
    name: "valid-south-african-id 1.0.2",
    decodes: "valid yes/no only",
    run: (input) => validSaId(input),
    verdict: (input) => ({ valid: validSaId(input) }),
  },
  {
    name: "stdnum 1.12.0 (ZA.idnr)",
    decodes: "valid yes/no, one error",
    run: (input) => stdnumZaIdnr.validate(input),
    verdict: (input) => ({ valid: stdnumZaIdnr.validate(input as string).isValid }),
  },
];

// The peers read "today" from `new Date()`. To judge them on the same reference date as our cases, the
// global Date is swapped, only for the duration of one correctness call (never during the speed run), for
// a subclass whose argument-less constructor and Date.now() return noon of that day.
function withClockPinnedTo<T>(referenceDate: string, call: () => T): T {
  const RealDate = globalThis.Date;
  const pinnedMs = localNoon(referenceDate).getTime();
  class PinnedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(pinnedMs);
      else super(...(args as [number, number, number, number, number, number, number]));
    }
    static override now(): number {
      return pinnedMs;
    }
  }
  globalThis.Date = PinnedDate as DateConstructor;
  try {
    return call();
  } finally {
    globalThis.Date = RealDate;
  }
}

type Judgement = { agrees: true } | { agrees: false; says: string };

function judge(contender: Contender, testCase: IdNumberCase): Judgement {
  let verdict: Verdict;
  try {
    verdict = withClockPinnedTo(testCase.referenceDate, () => contender.verdict(testCase.input, testCase.referenceDate));
  } catch (error) {
    return { agrees: false, says: `throws ${error instanceof Error ? error.constructor.name : typeof error}` };
  }
  const expected = testCase.expected;
  if (verdict.valid !== expected.valid) return { agrees: false, says: verdict.valid ? "valid" : "invalid" };
  if (!verdict.valid) return { agrees: true };
  const wrong: string[] = [];
  if (verdict.date_of_birth !== undefined && verdict.date_of_birth !== expected.date_of_birth) wrong.push(verdict.date_of_birth);
  if (verdict.gender !== undefined && verdict.gender !== expected.gender) wrong.push(verdict.gender);
  if (verdict.citizenship !== undefined && verdict.citizenship !== expected.citizenship) wrong.push(verdict.citizenship);
  return wrong.length === 0 ? { agrees: true } : { agrees: false, says: wrong.join(", ") };
}

/** Deterministic inputs: mostly valid IDs, some with a wrong check digit and some with an impossible date. */
function speedInputs(count: number): string[] {
  let seed = 0x5eed1d;
  const random = (limit: number) => {
    // mulberry32: tiny, seedable, good enough to spread inputs over the branches.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) % limit) as number;
  };
  const referenceMs = Date.UTC(2026, 0, 1);
  const inputs: string[] = [];
  for (let index = 0; index < count; index++) {
    const birth = new Date(referenceMs - random(36_500) * 86_400_000).toISOString().slice(0, 10);
    const idNumber = buildIdNumber({ date: birth, sequence: random(10_000), citizenshipDigit: random(2), aDigit: 8 + random(2) });
    const kind = index % 10;
    if (kind === 8) inputs.push(`${idNumber.slice(0, 12)}${(Number(idNumber[12]) + 1) % 10}`);
    else if (kind === 9) inputs.push(buildIdNumber({ date: `${birth.slice(2, 4)}0231`, sequence: random(10_000) }));
    else inputs.push(idNumber);
  }
  return inputs;
}

let sink = 0;

function parsesPerSecond(run: (input: string) => unknown, inputs: readonly string[], budgetMs: number): number {
  const pass = () => {
    for (const input of inputs) if (run(input)) sink++;
  };
  const warmUpEnd = performance.now() + budgetMs / 5;
  while (performance.now() < warmUpEnd) pass();
  let parses = 0;
  const start = performance.now();
  let elapsedMs = 0;
  do {
    pass();
    parses += inputs.length;
    elapsedMs = performance.now() - start;
  } while (elapsedMs < budgetMs);
  return parses / (elapsedMs / 1000);
}

// Full-width forms and emoji take two terminal columns; counting them as such keeps the columns aligned.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u;

function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += WIDE.test(character) ? 2 : 1;
  return width;
}

function pad(text: string, width: number, alignRight: boolean): string {
  const fill = " ".repeat(Math.max(0, width - displayWidth(text)));
  return alignRight ? fill + text : text + fill;
}

function table(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: ReadonlySet<number> = new Set()): string {
  const widths = header.map((title, column) => Math.max(displayWidth(title), ...rows.map((row) => displayWidth(row[column] ?? ""))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => pad(cell, widths[column] ?? 0, rightAligned.has(column)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

function shortName(contender: Contender): string {
  return (contender.name.split(" ")[0] ?? "")
    .replace("south-african-id-", "sa-id-")
    .replace("valid-south-african-id", "valid-sa-id")
    .replace("(domain/id-number.ts)", "");
}

function printableInput(input: unknown): string {
  // Invisible and unusual spaces are shown as escapes, so that e.g. a no-break space can be seen.
  if (typeof input === "string") {
    return JSON.stringify(input).replace(/[\p{Zs}\p{Cf}]/gu, (character) =>
      character === " " ? character : `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
  if (typeof input === "bigint") return `${input}n`;
  if (input instanceof String) return "new String(...)";
  try {
    return JSON.stringify(input) ?? String(input);
  } catch {
    return String(input);
  }
}

export interface BenchIdParseOptions {
  /** Measuring time per contender, after a warm-up of a fifth of it. */
  budgetMs?: number;
  inputCount?: number;
}

export async function benchIdParse(options: BenchIdParseOptions = {}): Promise<void> {
  const { budgetMs = 500, inputCount = 1000 } = options;
  const inputs = speedInputs(inputCount);

  console.log(
    `\nID number parsing: speed (Node ${process.version}, ${inputs.length} IDs: 80% valid, 10% bad check digit, 10% 31 Feb; ${budgetMs} ms each)`,
  );
  const speeds = CONTENDERS.map((contender) => ({ contender, perSecond: parsesPerSecond(contender.run, inputs, budgetMs) }));
  const ours = speeds[0]?.perSecond ?? Number.NaN;
  console.log(
    table(
      ["contender", "returns", "parses/s", "vs ours"],
      speeds.map(({ contender, perSecond }) => [
        contender.name,
        contender.decodes,
        Math.round(perSecond).toLocaleString("en-US"),
        `${(perSecond / ours).toFixed(2)}x`,
      ]),
      new Set([2, 3]),
    ),
  );

  console.log(`\nID number parsing: cases each contender gets wrong (${ID_NUMBER_CASES.length} cases from domain/id-number-cases.ts)`);
  console.log("A cell shows what the contender said instead of the expected result; '.' means it agrees.");
  console.log("Peers are run with the clock pinned to each case's reference date (south-african-id-validator gets it as referenceDate).\n");
  const judgements = ID_NUMBER_CASES.map((testCase) => ({
    testCase,
    byContender: CONTENDERS.map((contender) => judge(contender, testCase)),
  }));
  const disputed = judgements.filter(({ byContender }) => byContender.some((judgement) => !judgement.agrees));
  console.log(
    table(
      ["case", "input", "ref date", "expected", ...CONTENDERS.map(shortName)],
      disputed.map(({ testCase, byContender }) => [
        `${POLICY_TOPICS.has(testCase.topic) ? "(policy) " : ""}${testCase.name}`,
        printableInput(testCase.input),
        testCase.referenceDate,
        testCase.expected.valid ? (testCase.expected.date_of_birth ?? "") : "invalid",
        ...byContender.map((judgement) => (judgement.agrees ? "." : judgement.says)),
      ]),
    ),
  );

  console.log("");
  console.log(
    table(
      ["contender", "agrees", "wrong on correctness", "differs on input policy"],
      CONTENDERS.map((contender, index) => {
        const wrong = judgements.filter(({ byContender }) => !byContender[index]?.agrees);
        const policy = wrong.filter(({ testCase }) => POLICY_TOPICS.has(testCase.topic)).length;
        return [contender.name, `${judgements.length - wrong.length}/${judgements.length}`, String(wrong.length - policy), String(policy)];
      }),
      new Set([1, 2, 3]),
    ),
  );
  if (sink < 0) console.log(sink);
}

function isRunDirectly(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isRunDirectly()) await benchIdParse();
