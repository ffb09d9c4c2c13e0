// Moved to lib/wrangler-env.ts (nightly/ may not import from scripts/); kept so existing imports still work.
export * from "../lib/wrangler-env.ts";
