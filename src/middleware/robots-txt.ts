import type { MiddlewareHandler } from 'hono'

export interface RobotsTxtOptions {
  /** The robots.txt body to serve. */
  text: string
}

/** Serves `/robots.txt`; every other request goes on to the next handler. */
export function robotsTxt(options: RobotsTxtOptions): MiddlewareHandler {
  const { text } = options
  return async function robotsTxt(c, next) {
    if (c.req.path !== '/robots.txt') return next()
    return c.text(text, 200, { 'Content-Type': 'text/plain; charset=utf-8' })
  }
}
