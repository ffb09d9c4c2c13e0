// node scripts/bundled.mjs ENTRY.ts [ARG ...]: runs a TypeScript entry point as one ES module that esbuild
// bundled from it, our modules and the packages they import, kept in node_modules/.cache/ and bundled again only
// when one of its files changed.
//
// Why: through tsx's loader every module the build loads, ours and each of zod's, is resolved and transformed
// on a hook thread, about 0.4 s before the build's first line runs; one bundled module loads in a fraction of that
// (npm run build, README "The build"). Plain JavaScript, since it runs before anything could load TypeScript.
// For pure-JavaScript packages only (the build's: zod, csv-parse, fast-glob): a native addon cannot be bundled.
//
// Each module keeps its own import.meta.url (a bundle would otherwise give every module the bundle's), so
// code that finds files relative to itself (lib/root.ts) behaves as it does under tsx.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Bumped when the bundle's options change, so no bundle made with the old ones is used. */
const FORMAT = 3;
const cacheDir = process.env.EDU_BUNDLE_CACHE ?? path.join(ROOT, "node_modules", ".cache", "sa-edu-data-api");

const [entryArg, ...args] = process.argv.slice(2);
if (!entryArg || !/\.ts$/.test(entryArg)) {
  console.error("usage: node scripts/bundled.mjs ENTRY.ts [ARG ...]");
  process.exit(2);
}
const entry = path.resolve(entryArg);
const name = `${path.basename(entry, ".ts")}-${createHash("sha256").update(`${FORMAT}\0${entry}`).digest("hex").slice(0, 12)}`;
const bundle = path.join(cacheDir, `${name}.mjs`);
const inputsFile = path.join(cacheDir, `${name}.inputs.json`);

/** Each input's modification time and size, as the bundle was made from them. */
function stamp(file) {
  const stats = statSync(path.resolve(ROOT, file));
  return `${stats.mtimeMs}:${stats.size}`;
}

function isFresh() {
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    statSync(bundle);
    return Object.entries(inputs).every(([file, was]) => stamp(file) === was);
  } catch {
    return false; // no bundle yet, an input gone, or a file cut short: bundle again
  }
}

/** What rebundle read, file by file (relative to ROOT): its stamp taken before its text was read, so a file changed
 * while bundling is bundled again next time. */
const readStamps = {};

/** Loads each of our modules itself: records its stamp, and replaces import.meta.url by the module's own URL. */
const ownModules = {
  name: "own-modules",
  setup(build) {
    build.onLoad({ filter: /\.(ts|js|mjs|json)$/ }, (module) => {
      const relative = path.relative(ROOT, module.path);
      readStamps[relative] = stamp(relative);
      const text = readFileSync(module.path, "utf8");
      const loader = module.path.endsWith(".json") ? "json" : module.path.endsWith(".ts") ? "ts" : "js";
      return { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(module.path).href)), loader };
    });
  },
};

async function rebundle() {
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    // The packages' CommonJS modules (fast-glob's) call require, which an ES module lacks.
    banner: { js: 'import { createRequire as bundledRequire } from "node:module"; const require = bundledRequire(import.meta.url);' },
    // Mappings only: a stack trace needs no copy of the sources (a map a third the size for Node to read at start).
    sourcemap: "linked",
    sourcesContent: false,
    write: false,
    metafile: true,
    outfile: bundle,
    logLevel: "error",
    plugins: [ownModules],
  });
  mkdirSync(cacheDir, { recursive: true });
  // Written beside and renamed, so a command started meanwhile reads a whole bundle or bundles again itself.
  const suffix = `.${process.pid}.tmp`;
  for (const file of result.outputFiles) {
    writeFileSync(file.path + suffix, file.contents);
    renameSync(file.path + suffix, file.path);
  }
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((file) => [file, readStamps[file] ?? stamp(file)]));
  writeFileSync(inputsFile + suffix, JSON.stringify(inputs));
  renameSync(inputsFile + suffix, inputsFile);
}

if (!isFresh()) await rebundle();
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(bundle).href);
