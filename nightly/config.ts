// The committed upstream config (nightly/upstream.json): which national files the nightly rebuild
// fetches, how downloads behave, and how much loss the guard tolerates. One zod schema is the type,
// the validator and the documentation of the file.
import { readFile } from "node:fs/promises";
import { z } from "zod";

const upstreamFile = z
  .object({
    name: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]*\.(xlsx|csv|txt|json)$/i,
        "a plain file name ending .xlsx, .csv, .txt or .json (a legacy .xls is not read: see docs/national-datasets.md)",
      ),
    url: z.url({ protocol: /^https?$/, error: "an absolute http(s) URL" }).optional(),
    path: z.string().min(1).optional(),
  })
  .refine((file) => (file.url === undefined) !== (file.path === undefined), "exactly one of url or path");

const dataset = z.object({
  source_page: z.url().optional(),
  files: z.array(upstreamFile).min(1, "at least one file"),
});

const upstreamConfigSchema = z.object({
  $comment: z.string().optional(),
  schools: dataset,
  postal_codes: dataset.refine((d) => d.files.length === 1, "exactly one postal code file"),
  /** The NSC School Performance Report; without it the committed nsc-results.csv is kept as it is. */
  nsc: dataset.optional(),
  download: z
    .object({
      timeout_seconds: z.number().positive().max(3600).default(120),
      attempts: z.number().int().min(1).max(10).default(3),
      max_megabytes: z.number().positive().max(1024).default(64),
    })
    .prefault({}),
  guard: z
    .object({
      max_drop_share: z.number().min(0).max(1).default(0.1),
      /** The share one part may lose: each province's high schools, and the rows of each national table (the
       * postal code list is one file). Tighter than the total's, since a part is small beside the whole. */
      max_group_drop_share: z.number().min(0).max(1).default(0.05),
      /** Absolute floors per resource, checked even when there is no published build to compare with
       * (a first run, or a CI cache that lost the previous dist/). */
      min_records: z.record(z.string(), z.number().int().min(0)).default({}),
    })
    .prefault({}),
});

export type UpstreamConfig = z.infer<typeof upstreamConfigSchema>;
export type UpstreamFile = z.infer<typeof upstreamFile>;

export async function loadUpstreamConfig(file: string): Promise<UpstreamConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the upstream config ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = upstreamConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
    throw new Error(`the upstream config ${file} is not valid:\n  ${problems.join("\n  ")}`);
  }
  return parsed.data;
}
