/**
 * robots-edge/bots: who is asking. `identifyAgent(userAgent)` names the
 * crawler or tool a User-Agent header belongs to and the product tokens it
 * obeys; `registry` and `agents` are the typed data behind it, and
 * `agentDocs(id)` the operator's page each entry's facts come from.
 *
 * @example
 * import { identifyAgent } from 'robots-edge/bots'
 * identifyAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')?.tokens
 * // ['googlebot']
 */
export * from '../core/agents/index.ts'
// The operators' published IP ranges and the check of a claim against them.
export * from '../verify/index.ts'
// Here and not in ../core/agents/index.ts, which the Worker imports: the Worker needs no documentation URLs.
export { agentDocs } from '../core/agents/registry/sources.ts'
