// Large collections (schools, postal codes) do not get one file per record: the free plan allows 20,000
// files per deployment. Their detail records are grouped into buckets chosen by a hash of the record's key,
// computed the same way by the build (to write) and the Worker (to find).

/** FNV-1a, 32 bit: tiny, fast, identical in Node and workerd, and good enough to spread keys evenly. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function bucketOf(key: string, bucketCount: number): number {
  return fnv1a32(key) % bucketCount;
}

/** Enough buckets for about `perBucket` records each, at least 1. */
export function bucketCountFor(records: number, perBucket: number): number {
  return Math.max(1, Math.ceil(records / perBucket));
}
