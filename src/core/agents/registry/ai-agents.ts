import type { AgentEntry } from '../types.ts'
import { agent } from './define.ts'

/**
 * Assistants' fetchers (one page for one person's prompt) and autonomous
 * agents (browser agents, coding agents and their CLIs) that act for a person
 * over several steps.
 */
export const aiAssistantAgents = [
  // Fetchers for one person's prompt.
  agent('AI2Bot-DeepResearchEval', 'Allen Institute for AI (Ai2)', 'AI Assistant', 'user-fetch'),
  agent('kagi-fetcher', 'Kagi', 'AI Assistant', 'user-fetch'),
  agent('Kimi-User', 'Moonshot AI', 'AI Assistant', 'user-fetch'),
  agent('TongyiBot', 'Alibaba', 'AI Assistant', 'user-fetch'),
  agent('YiyanBot', 'Baidu', 'AI Assistant', 'user-fetch'),
  agent('Shap-User', 'Parallel Web Systems', 'AI Assistant', 'user-fetch'),
  agent('GeistHaus-PageFetcher', 'GeistHaus', 'AI Assistant', 'user-fetch'),
  agent('Poggio-Citations', 'Poggio', 'AI Assistant', 'user-fetch'),
  agent('UseAI', 'Use AI', 'AI Assistant', 'user-fetch'),
  agent('WRTNBot', 'Wrtn Technologies', 'AI Assistant', 'user-fetch'),
  agent('BuddyBot', 'BuddyBot Learning', 'AI Assistant', 'user-fetch'),
  agent(['QuillBot', 'quillbot.com'], 'QuillBot (Learneo)', 'AI Assistant', 'user-fetch'),
  // Anthropic's older fetcher name; Anthropic documents only ClaudeBot, Claude-User and Claude-SearchBot today.
  agent('Claude-Web', 'Anthropic', 'AI Assistant', 'user-fetch'),

  // Agents that browse and act for a person.
  agent('Manus-User', 'Manus (Butterfly Effect)', 'AI Assistant', 'agent'),
  agent(['NovaAct', 'Agent-NovaAct'], 'Amazon', 'AI Assistant', 'agent'),
  agent('AmazonBuyForMe', 'Amazon', 'AI Assistant', 'agent'),
  // Sends a browser's User-Agent and signs its requests (Web Bot Auth): its header names nothing.
  agent('ChatGPT Agent', 'OpenAI', 'AI Assistant', 'agent', { id: 'chatgpt-agent', tokens: ['chatgpt'] }),
  agent('operator', 'OpenAI', 'AI Assistant', 'agent', { hasOwnUserAgent: false }),
  agent('Mozilla-Tabstack', 'Mozilla', 'AI Assistant', 'agent'),
  agent('TwinAgent', 'Twin', 'AI Assistant', 'agent'),

  // Coding agents and their CLIs, fetching documentation and pages while they work.
  agent('Claude-Code', 'Anthropic', 'AI Assistant', 'agent'),
  agent('Cursor', 'Anysphere (Cursor)', 'AI Assistant', 'agent'),
  agent('GitHubCopilotChat', 'GitHub (Microsoft)', 'AI Assistant', 'agent'),
  agent('Devin', 'Cognition', 'AI Assistant', 'agent'),
  agent(['opencode', 'opencode-smartfetch'], 'SST (opencode)', 'AI Assistant', 'agent'),
  // ByteDance's IDE; its built-in browser and its agent both send `Trae/…`.
  agent('Trae', 'ByteDance', 'AI Assistant', 'agent'),
] as const satisfies readonly AgentEntry[]
