import type { AgentEntry } from '../types.ts'
import { AI_ROBOTS } from './ai-data.ts'

const ANTHROPIC_CODE = 'https://docs.anthropic.com/en/docs/claude-code/overview'
const AMAZON_NOVA = 'https://nova.amazon.com/act'
const PARALLEL = 'https://docs.parallel.ai/features/crawler'

/**
 * Assistants' fetchers (one page for one person's prompt) and autonomous
 * agents (browser agents, coding agents and their CLIs) that act for a person
 * over several steps.
 */
export const aiAssistantAgents = [
  // Fetchers for one person's prompt.
  { id: 'ai2bot-deepresearcheval', tokens: ['ai2bot-deepresearcheval'], uaNames: ['AI2Bot-DeepResearchEval'], operator: 'Allen Institute for AI (Ai2)', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://allenai.org/crawler' },
  { id: 'kagi-fetcher', tokens: ['kagi-fetcher'], uaNames: ['kagi-fetcher'], operator: 'Kagi', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://kagi.com' },
  { id: 'kimi-user', tokens: ['kimi-user'], uaNames: ['Kimi-User'], operator: 'Moonshot AI', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://kimi.ai' },
  { id: 'tongyibot', tokens: ['tongyibot'], uaNames: ['TongyiBot'], operator: 'Alibaba', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'yiyanbot', tokens: ['yiyanbot'], uaNames: ['YiyanBot'], operator: 'Baidu', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'shap-user', tokens: ['shap-user'], uaNames: ['Shap-User'], operator: 'Parallel Web Systems', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: PARALLEL },
  { id: 'geisthaus-pagefetcher', tokens: ['geisthaus-pagefetcher'], uaNames: ['GeistHaus-PageFetcher'], operator: 'GeistHaus', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'poggio-citations', tokens: ['poggio-citations'], uaNames: ['Poggio-Citations'], operator: 'Poggio', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'useai', tokens: ['useai'], uaNames: ['UseAI'], operator: 'Use AI', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'wrtnbot', tokens: ['wrtnbot'], uaNames: ['WRTNBot'], operator: 'Wrtn Technologies', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'buddybot', tokens: ['buddybot'], uaNames: ['BuddyBot'], operator: 'BuddyBot Learning', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://www.buddybotlearning.com' },
  { id: 'quillbot', tokens: ['quillbot'], uaNames: ['QuillBot', 'quillbot.com'], operator: 'QuillBot (Learneo)', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: 'https://quillbot.com' },
  // Anthropic's older fetcher name; Anthropic documents only ClaudeBot, Claude-User and Claude-SearchBot today.
  { id: 'claude-web', tokens: ['claude-web'], uaNames: ['Claude-Web'], operator: 'Anthropic', category: 'AI Assistant', purpose: 'user-fetch', obeysRobotsTxt: true, docs: AI_ROBOTS },

  // Agents that browse and act for a person.
  { id: 'manus-user', tokens: ['manus-user'], uaNames: ['Manus-User'], operator: 'Manus (Butterfly Effect)', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://manus.im' },
  { id: 'novaact', tokens: ['novaact'], uaNames: ['NovaAct', 'Agent-NovaAct'], operator: 'Amazon', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: AMAZON_NOVA },
  { id: 'amazonbuyforme', tokens: ['amazonbuyforme'], uaNames: ['AmazonBuyForMe'], operator: 'Amazon', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://www.amazon.com' },
  // Sends a browser's User-Agent and signs its requests (Web Bot Auth): its header names nothing.
  { id: 'chatgpt-agent', tokens: ['chatgpt'], uaNames: ['ChatGPT Agent'], operator: 'OpenAI', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://platform.openai.com/docs/bots' },
  { id: 'operator', tokens: ['operator'], uaNames: [], operator: 'OpenAI', category: 'AI Assistant', purpose: 'agent', hasOwnUserAgent: false, obeysRobotsTxt: true, docs: 'https://openai.com/index/introducing-operator/' },
  { id: 'mozilla-tabstack', tokens: ['mozilla-tabstack'], uaNames: ['Mozilla-Tabstack'], operator: 'Mozilla', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: AI_ROBOTS },
  { id: 'twinagent', tokens: ['twinagent'], uaNames: ['TwinAgent'], operator: 'Twin', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: AI_ROBOTS },

  // Coding agents and their CLIs, fetching documentation and pages while they work.
  { id: 'claude-code', tokens: ['claude-code'], uaNames: ['Claude-Code'], operator: 'Anthropic', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: ANTHROPIC_CODE },
  { id: 'cursor', tokens: ['cursor'], uaNames: ['Cursor'], operator: 'Anysphere (Cursor)', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://cursor.com' },
  { id: 'githubcopilotchat', tokens: ['githubcopilotchat'], uaNames: ['GitHubCopilotChat'], operator: 'GitHub (Microsoft)', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://docs.github.com/en/copilot' },
  { id: 'devin', tokens: ['devin'], uaNames: ['Devin'], operator: 'Cognition', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://devin.ai' },
  { id: 'opencode', tokens: ['opencode'], uaNames: ['opencode', 'opencode-smartfetch'], operator: 'SST (opencode)', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://opencode.ai' },
  // ByteDance's IDE; its built-in browser and its agent both send `Trae/…`.
  { id: 'trae', tokens: ['trae'], uaNames: ['Trae'], operator: 'ByteDance', category: 'AI Assistant', purpose: 'agent', obeysRobotsTxt: true, docs: 'https://www.trae.ai' },
] as const satisfies readonly AgentEntry[]
