// List chunks and detail buckets carry an offset table, so the Worker cuts a page or a record out of the
// file's text instead of parsing the whole file (issue 31: a 36 KB bucket parsed for one 600-byte record
// cost about 290 µs of CPU per request, the slice about 20 µs). Both stay valid JSON for every other reader:
//
//   chunk:  {"offsets":[o0,o1,...,on],"items":[item0,item1,...]}
//   bucket: {"offsets":{"key":[start,end],...},"records":{"key":{record},...}}
//
// Offsets are JavaScript string indexes (UTF-16 code units, what `response.text()` gives) counted from the
// first character of the `items` array or the `records` object. In a chunk, item i is [o(i), o(i+1) - 1)
// (the comma after it left out), so items i..j-1 joined by commas are [o(i), o(j) - 1). The text of each
// item is JSON.stringify's, so a slice is byte for byte what stringifying the parsed item gives.

const CHUNK_HEAD = '{"offsets":';
const CHUNK_ITEMS = ',"items":';
const BUCKET_HEAD = '{"offsets":';
const BUCKET_RECORDS = ',"records":';

/** A list chunk's file: its items with the table of where each starts. */
export function chunkText(items: readonly unknown[]): string {
  const offsets: number[] = [];
  let body = "[";
  items.forEach((item, i) => {
    if (i > 0) body += ",";
    offsets.push(body.length);
    body += JSON.stringify(item);
  });
  offsets.push(body.length + 1);
  body += "]";
  return `${CHUNK_HEAD}${JSON.stringify(offsets)}${CHUNK_ITEMS}${body}}`;
}

/** Items `from` to `to - 1` of a chunk's text, joined by commas as JSON.stringify joins them ("" for none). */
export function chunkItemsText(text: string, from: number, to: number): string {
  if (to <= from) return "";
  const itemsAt = text.indexOf(CHUNK_ITEMS);
  const offsets = JSON.parse(text.slice(CHUNK_HEAD.length, itemsAt)) as number[];
  const base = itemsAt + CHUNK_ITEMS.length;
  const start = offsets[from];
  const end = offsets[Math.min(to, offsets.length - 1)];
  if (start === undefined || end === undefined) throw new Error(`a list chunk has no items ${from} to ${to - 1}`);
  return text.slice(base + start, base + end - 1);
}

/** A chunk's items, parsed (readers other than the Worker's plain page). */
export function chunkItems<T = unknown>(text: string): T[] {
  return (JSON.parse(text) as { items: T[] }).items;
}

/** A bucket's file: its records by key, in the order given, with the table of where each is. `json`: each
 * record's JSON.stringify text, when the caller has it already. */
export function bucketText(records: Iterable<readonly [string, unknown]>, json: (record: unknown) => string = JSON.stringify): string {
  const offsets: Record<string, [number, number]> = {};
  let body = "{";
  for (const [key, record] of records) {
    if (body.length > 1) body += ",";
    body += `${JSON.stringify(key)}:`;
    const start = body.length;
    body += json(record);
    offsets[key] = [start, body.length];
  }
  body += "}";
  return `${BUCKET_HEAD}${JSON.stringify(offsets)}${BUCKET_RECORDS}${body}}`;
}

/** The JSON text of one record of a bucket's text, or undefined when the bucket has no such key. */
export function bucketRecordText(text: string, key: string): string | undefined {
  const recordsAt = text.indexOf(BUCKET_RECORDS);
  const offsets = JSON.parse(text.slice(BUCKET_HEAD.length, recordsAt)) as Record<string, [number, number]>;
  if (!Object.hasOwn(offsets, key)) return undefined;
  const [start, end] = offsets[key] as [number, number];
  const base = recordsAt + BUCKET_RECORDS.length;
  return text.slice(base + start, base + end);
}

/** A bucket's records by key, parsed (readers other than the Worker's detail). */
export function bucketRecords<T = unknown>(text: string): Record<string, T> {
  return (JSON.parse(text) as { records: Record<string, T> }).records;
}
