import { normalizeEncoding } from './encoding.ts'
import { matchesPattern } from './match.ts'
import { compileGroup, PER_GROUP, type CompiledRule } from './compiled-rule.ts'
import { buildRuleSet, type RuleSet } from './rule-set.ts'
import type { DecidingRule, RobotsTxtModel, Rule, Verdict } from './types.ts'

/**
 * Checks a token's rules answer by visiting each of them before they are
 * indexed. A crawler reading a file for itself decides once or a few times
 * (Google's parser matches in the same pass as it parses); the guard decides
 * thousands of times. The first check visits every rule; the second builds
 * the index.
 */
const SCAN_CHECKS = 1

/**
 * One token's rules (RFC 9309 §2.2.1: every group naming the token, merged
 * in file order): scanned for the first checks, then compiled into a
 * RuleSet. Both decide alike, verdict and deciding line; the conformance
 * tests hold both to Google's reference cases.
 */
export class TokenRules {
  #set: RuleSet | null = null
  #uses = 0

  constructor(
    /** The lower-case token, or `*`. */
    readonly token: string,
    readonly model: RobotsTxtModel,
    /** The groups naming it, in file order. */
    readonly groups: readonly number[],
  ) {}

  /** The indexed rules once they have been asked for often enough; null while a scan is cheaper. */
  indexed(): RuleSet | null {
    if (this.#set !== null) return this.#set
    if (++this.#uses <= SCAN_CHECKS) return null
    // Each token's compiled rules are its own (they carry its verdicts).
    const rules: CompiledRule[] = []
    const seen = { allow: new Set<string>(), disallow: new Set<string>() }
    for (const index of this.groups) compileGroup(this.model.groups[index]!.rules, index, this.token, rules, seen)
    return (this.#set = buildRuleSet(this.token, rules))
  }

  /**
   * The verdict for a normalised path, from every rule in turn: RFC 9309
   * §2.2.2, the longest match wins, `allow` wins a tie, and among equals the
   * earliest line is reported (as RuleSet orders them).
   */
  scan(path: string): Verdict {
    let bestRank = -1
    let bestOrder = Infinity
    let best: Rule | null = null
    let bestPriority = 0
    const consider = (pattern: string, rule: Rule, order: number): void => {
      const rank = pattern.length * 2 + (rule.type === 'allow' ? 1 : 0)
      if ((rank > bestRank || (rank === bestRank && order < bestOrder)) && matchesPattern(pattern, path)) {
        bestRank = rank
        bestOrder = order
        best = rule
        bestPriority = pattern.length
      }
    }
    for (const index of this.groups) {
      const rules = this.model.groups[index]!.rules
      for (let k = 0; k < rules.length; k++) {
        const rule = rules[k]!
        const pattern = normalizeEncoding(rule.pattern)
        consider(pattern, rule, index * PER_GROUP + 2 * k)
        // Google extension: `Allow: /dir/index.html` also allows `/dir/` (see compileGroup).
        if (rule.type === 'allow') {
          const slash = pattern.lastIndexOf('/')
          if (slash >= 0 && pattern.startsWith('/index.htm', slash)) consider(pattern.slice(0, slash + 1) + '$', rule, index * PER_GROUP + 2 * k + 1)
        }
      }
    }
    const rule = best as Rule | null
    if (rule === null) return { allowed: true, group: this.token, rule: null }
    const source: DecidingRule = rule.line === undefined ? { type: rule.type, pattern: rule.pattern, line: 0 } : (rule as DecidingRule)
    // RFC 9309 §2.2.2: an empty pattern matches and disallows nothing.
    return { allowed: rule.type === 'allow' || bestPriority === 0, group: this.token, rule: source }
  }
}
