export { identifyAgent, type AgentIdentity } from './identify.ts'
export { agents, getAgent, registry, tools, type AgentId, type KnownAgent, type KnownAgentToken, type KnownToken } from './registry.ts'
export type { AgentCategory, AgentEntry, AgentPurpose, AgentVerification, IpRangeFormat, IpRangeList, ToolEntry } from './types.ts'
