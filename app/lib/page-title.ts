/**
 * The document title: the page's own title followed by the brand's name (unless the title already
 * names it, as the landing's does), the brand's index title where a page has none, and the count of
 * unread messages and new likes in front (docs/product/screens.md §2).
 */
export function pageTitle(o: { title?: string; brandName: string; indexTitle: string; unread?: number }): string {
  const own = o.title?.trim();
  const title = !own ? o.indexTitle : own.includes(o.brandName) ? own : `${own} – ${o.brandName}`;
  return o.unread && o.unread > 0 ? `(${o.unread}) ${title}` : title;
}
