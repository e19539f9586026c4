/** Tiny benchmark harness: warm up, then run batches until `ms` elapse. */
export interface Sample {
  /** Nanoseconds per call. */
  ns: number
  calls: number
}

export function measure(fn: (i: number) => unknown, ms = 400): Sample {
  let sink: unknown
  const warmEnd = performance.now() + Math.min(150, ms / 2)
  let i = 0
  while (performance.now() < warmEnd) for (let k = 0; k < 64; k++) sink = fn(i++)
  let calls = 0
  let batch = 16
  const start = performance.now()
  let elapsed = 0
  while (elapsed < ms) {
    for (let k = 0; k < batch; k++) sink = fn(i++)
    calls += batch
    elapsed = performance.now() - start
    if (elapsed < ms / 20) batch *= 2
  }
  if (sink === Symbol.for('never')) console.log(sink)
  return { ns: (elapsed * 1e6) / calls, calls }
}

export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`
  return `${ns.toFixed(0)} ns`
}

/** Prints rows as an aligned table. */
export function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  for (const r of rows) console.log(r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
}

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same inputs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
