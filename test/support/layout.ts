/**
 * What a reader of the dashboard sees of its layout, measured in the page:
 * whether anything scrolls sideways, and whether every Verdict cell of the
 * agents table lies inside both the screen and its table's box.
 */
import type { Page } from 'playwright-core'

export interface Layout {
  /** The page is wider than the screen. */
  readonly pageScrolls: boolean
  /** The agents table is wider than its box (it would scroll inside it). */
  readonly tableScrolls: boolean
  /** Verdict cells in the agents table. */
  readonly verdicts: number
  readonly verdictsInView: boolean
}

export function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const root = document.documentElement
    const wrapper = document.querySelector('#agents')!.parentElement!
    const box = wrapper.getBoundingClientRect()
    const cells = Array.from(document.querySelectorAll('#agents td[data-label="Verdict"]')).map((td) => td.getBoundingClientRect())
    return {
      pageScrolls: root.scrollWidth > root.clientWidth,
      tableScrolls: wrapper.scrollWidth > wrapper.clientWidth,
      verdicts: cells.length,
      verdictsInView: cells.every((r) => r.width > 0 && r.left >= 0 && r.right <= root.clientWidth && r.left >= box.left && r.right <= box.right + 0.5),
    }
  })
}
