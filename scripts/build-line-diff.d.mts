/** Writes public/_robots/static/line-diff.js from src/core/line-diff.ts when it is missing or stale; returns its path. */
export function buildLineDiff(): string
