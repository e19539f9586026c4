/**
 * Tiny benchmark harness. A function is warmed up, then timed in many short
 * batches (about 0.25 ms each, or one call when a call takes longer) until
 * `ms` elapse; its cost is the 10th percentile of the batches' cost per call
 * (the fastest call, for calls longer than a batch).
 * On a machine others share, a batch can only be slowed down by them, never
 * sped up, so the fast batches are the code's own cost; the 10th percentile
 * rather than the minimum keeps one lucky timer reading from deciding.
 */
export interface Sample {
  /** Nanoseconds per call. */
  ns: number
  calls: number
}

const BATCH_MS = 0.25

export function measure(fn: (i: number) => unknown, ms = 400): Sample {
  let sink: unknown
  let i = 0
  const warmEnd = performance.now() + Math.min(150, ms / 2)
  while (performance.now() < warmEnd) for (let k = 0; k < 16; k++) sink = fn(i++)
  let batch = 1
  for (;;) {
    const t = performance.now()
    for (let k = 0; k < batch; k++) sink = fn(i++)
    if (performance.now() - t >= BATCH_MS || batch >= 1 << 20) break
    batch *= 2
  }
  const perCall: number[] = []
  let calls = 0
  const start = performance.now()
  while (performance.now() - start < ms || perCall.length < 5) {
    const t = performance.now()
    for (let k = 0; k < batch; k++) sink = fn(i++)
    perCall.push(((performance.now() - t) * 1e6) / batch)
    calls += batch
  }
  if (sink === Symbol.for('never')) console.log(sink)
  perCall.sort((a, b) => a - b)
  // A call longer than a batch runs alone and spans scheduler time slices,
  // so most of them are cut by other processes: the fastest is its cost.
  return { ns: perCall[batch === 1 ? 0 : Math.floor(perCall.length / 10)]!, calls }
}

const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * Two functions measured in alternation, `rounds` times each, keeping each
 * one's median round: alternating exposes both sides to the same load, and
 * the median keeps one lucky or unlucky round from deciding.
 */
export function compare(ours: (i: number) => unknown, theirs: (i: number) => unknown, ms = 1200, rounds = 7): { ours: number; theirs: number } {
  const a: number[] = []
  const b: number[] = []
  for (let r = 0; r < rounds; r++) {
    a.push(measure(ours, ms / rounds).ns)
    b.push(measure(theirs, ms / rounds).ns)
  }
  return { ours: median(a), theirs: median(b) }
}

/** The median of `rounds` measurements of one function (see compare). */
export function fastest(fn: (i: number) => unknown, ms = 1200, rounds = 7): number {
  const all: number[] = []
  for (let r = 0; r < rounds; r++) all.push(measure(fn, ms / rounds).ns)
  return median(all)
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
