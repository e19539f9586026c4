/**
 * robots-edge/engine: the pure RFC 9309 engine (parse, match, serialize,
 * lint), read as Google's reference matcher reads it. No Worker APIs: it
 * runs in Node, browsers and Workers alike.
 *
 * @example
 * import { compileRobotsTxt } from 'robots-edge/engine'
 * const robots = compileRobotsTxt('User-agent: *\nDisallow: /admin/\n')
 * robots.check(['googlebot'], 'https://example.com/admin/x')
 * // { allowed: false, group: '*', rule: { type: 'disallow', pattern: '/admin/', line: 2 } }
 */
export * from '../core/robots/index.ts'
