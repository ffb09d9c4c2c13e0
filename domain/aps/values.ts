// How the APS request checks speak of a value a client sent: what it is ("a string", "null", "an array").
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const describe = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : `a ${typeof value}`;
