// The server a user would write instead of ours (issue 31): a plain Node HTTP server over SQLite with FTS5,
// loaded from a built dist/ (the schools and postal codes, list items and detail records as the build wrote
// them), answering the same URLs with the same bodies. No token check, no rate limit, nothing but the query.
// SQLite is node-sqlite3-wasm (WebAssembly, so it installs with no download and no native build; FTS5 is
// compiled in); the database is in memory. bench/peer.ts runs it in a process of its own (as our Worker runs
// in workerd's), so it does not share the load generator's event loop: npx tsx bench/peer-server.ts DIST
// prints its origin on its first line and serves until killed.
import { readdir, readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sqlite, { type Statement } from "node-sqlite3-wasm";
import { paths, type Manifest } from "../lib/layout.ts";
import { bucketRecords, chunkItems } from "../lib/sliced.ts";
import { searchKey, searchWords } from "../lib/text.ts";
import { DEFAULT_PAGE, DEFAULT_PER_PAGE } from "../lib/pagination.ts";

type Row = Record<string, string | number | null>;
type Province = { id: string; name: string; code: string };

/** A list's rows from dist/: its list items in list order, each with its detail record. */
async function rowsOf(dist: string, manifest: Manifest, resource: string) {
  const read = (file: string) => readFile(path.join(dist, file), "utf8");
  const items: Record<string, unknown>[] = [];
  for (let k = 0; k < (manifest.resources[resource]?.list?.chunks ?? 0); k++)
    items.push(...chunkItems<Record<string, unknown>>(await read(paths.listChunk(resource, k))));
  const details = new Map<string, Record<string, unknown>>();
  for (const file of await readdir(path.join(dist, `v1/data/${resource}/_buckets`))) {
    for (const [key, record] of Object.entries(bucketRecords<Record<string, unknown>>(await read(`v1/data/${resource}/_buckets/${file}`))))
      details.set(key, record);
  }
  return items.map((item, position) => ({ position, item, detail: details.get(String(item.id)) ?? {} }));
}

export type PeerServer = { base: string; stop(): Promise<void> };

export async function startPeerServer(dist: string): Promise<PeerServer> {
  const manifest = JSON.parse(await readFile(path.join(dist, "manifest.json"), "utf8")) as Manifest;
  const provinces = (JSON.parse(await readFile(path.join(dist, paths.wholeList("provinces")), "utf8")) as { data: Province[] }).data;
  const provinceId = new Map(
    provinces.flatMap(
      (p) =>
        [
          [p.name, p.id],
          [p.id, p.id],
          [p.code.toLowerCase(), p.id],
        ] as [string, string][],
    ),
  );

  const db = new sqlite.Database(":memory:");
  db.exec(`
    CREATE TABLE schools (position INTEGER PRIMARY KEY, id TEXT UNIQUE, province_id TEXT, quintile INTEGER, search TEXT, item TEXT, detail TEXT);
    CREATE INDEX schools_province_quintile ON schools (province_id, quintile, position);
    CREATE VIRTUAL TABLE schools_fts USING fts5(search, emis_number, content='', tokenize='unicode61 remove_diacritics 2');
    CREATE TABLE postal_codes (position INTEGER PRIMARY KEY, id TEXT UNIQUE, search TEXT, item TEXT, detail TEXT);
    CREATE VIRTUAL TABLE postal_codes_fts USING fts5(search, search_other, content='', tokenize='unicode61 remove_diacritics 2');
  `);
  db.exec("BEGIN");
  const school = db.prepare("INSERT INTO schools VALUES (?, ?, ?, ?, ?, ?, ?)");
  const schoolText = db.prepare("INSERT INTO schools_fts (rowid, search, emis_number) VALUES (?, ?, ?)");
  for (const { position, item, detail } of await rowsOf(dist, manifest, "high-schools")) {
    const search = searchKey(String(item.name));
    const province = provinceId.get(String(detail.province)) ?? null;
    school.run([
      position,
      String(item.id),
      province,
      (detail.quintile as number | null) ?? null,
      search,
      JSON.stringify(item),
      JSON.stringify(detail),
    ]);
    schoolText.run([position, search, String(item.emis_number)]);
  }
  const code = db.prepare("INSERT INTO postal_codes VALUES (?, ?, ?, ?, ?)");
  const codeText = db.prepare("INSERT INTO postal_codes_fts (rowid, search, search_other) VALUES (?, ?, ?)");
  for (const { position, item, detail } of await rowsOf(dist, manifest, "postal-codes")) {
    const search = searchKey(String(item.suburb));
    code.run([position, String(item.id), search, JSON.stringify(item), JSON.stringify(detail)]);
    codeText.run([position, search, searchKey(String(item.area ?? ""))]);
  }
  db.exec("COMMIT");
  for (const statement of [school, schoolText, code, codeText]) statement.finalize();

  const tables = { "high-schools": "schools", "postal-codes": "postal_codes" } as const;
  const statements: Statement[] = [];
  const prepare = (sql: string) => {
    const statement = db.prepare(sql);
    statements.push(statement);
    return statement;
  };
  const queries = Object.fromEntries(
    Object.entries(tables).map(([resource, table]) => [
      resource,
      {
        detail: prepare(`SELECT detail FROM ${table} WHERE id = ?`),
        page: prepare(`SELECT item FROM ${table} ORDER BY position LIMIT ? OFFSET ?`),
        total: prepare(`SELECT count(*) AS n FROM ${table}`),
        // Name search: every word starts a word of a searched column; exact name first, then names that start
        // with the query, then the rest, each in list order (docs/find.md).
        search: prepare(
          `SELECT t.item FROM ${table}_fts f JOIN ${table} t ON t.position = f.rowid WHERE ${table}_fts MATCH ?1
           ORDER BY CASE WHEN t.search = ?2 THEN 0 WHEN substr(t.search, 1, length(?2)) = ?2 THEN 1 ELSE 2 END, t.position LIMIT ?3 OFFSET ?4`,
        ),
        searchTotal: prepare(`SELECT count(*) AS n FROM ${table}_fts WHERE ${table}_fts MATCH ?`),
      },
    ]),
  ) as Record<keyof typeof tables, Record<"detail" | "page" | "total" | "search" | "searchTotal", Statement>>;
  const filtered = prepare("SELECT item FROM schools WHERE province_id = ? AND quintile = ? ORDER BY position LIMIT ? OFFSET ?");
  const filteredTotal = prepare("SELECT count(*) AS n FROM schools WHERE province_id = ? AND quintile = ?");

  const page = (rows: Row[], total: number, p: number, perPage: number) =>
    `{"data":[${rows.map((r) => r.item).join(",")}],"meta":{"total":${total},"page":${p},"per_page":${perPage}}}`;

  const answer = (url: URL): [number, string] => {
    const match = /^\/v1\/data\/(high-schools|postal-codes)(?:\/([A-Za-z0-9_-]+))?$/.exec(url.pathname);
    if (!match) return [404, '{"error":"not found"}'];
    const resource = match[1] as keyof typeof tables;
    const q = queries[resource];
    if (match[2]) {
      const row = q.detail.get([match[2]]) as Row | null;
      return row ? [200, `{"data":${row.detail}}`] : [404, '{"error":"not found"}'];
    }
    const params = url.searchParams;
    const p = Number(params.get("page") ?? DEFAULT_PAGE);
    const perPage = Number(params.get("per_page") ?? DEFAULT_PER_PAGE);
    const limits = [perPage, (p - 1) * perPage];
    const text = params.get("q");
    if (text !== null) {
      const words = searchWords(text);
      const fts = words.map((word) => `"${word}"*`).join(" AND ");
      const total = (q.searchTotal.get([fts]) as Row).n as number;
      return [200, page(q.search.all([fts, words.join(" "), ...limits]) as Row[], total, p, perPage)];
    }
    const province = params.get("province");
    if (resource === "high-schools" && province !== null) {
      const filter = [provinceId.get(province.toLowerCase()) ?? null, Number(params.get("quintile"))];
      const total = (filteredTotal.get(filter) as Row).n as number;
      return [200, page(filtered.all([...filter, ...limits]) as Row[], total, p, perPage)];
    }
    return [200, page(q.page.all(limits) as Row[], (q.total.get() as Row).n as number, p, perPage)];
  };

  const server = http.createServer((request, response) => {
    const [status, body] = answer(new URL(request.url ?? "/", "http://peer"));
    response.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    response.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const statement of statements) statement.finalize();
      db.close();
    },
  };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2];
  if (!dist) throw new Error("usage: peer-server.ts DIST");
  const server = await startPeerServer(dist);
  console.log(server.base);
  process.on("SIGTERM", () => void server.stop().then(() => process.exit(0)));
}
