/**
 * Just enough Markdown for the OpenAPI document's descriptions (`code`, **bold**, links,
 * paragraphs, `- ` lists), on text that is escaped first: whatever the document says, it
 * cannot add markup of its own to the page.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe as element text and as a quoted attribute value. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** Only links a reader can follow without surprises: the web, and this site's own paths. */
const SAFE_HREF = /^(https?:\/\/|\/(?!\/)|#)/i;

/** One line of Markdown as HTML phrasing content. */
export function inline(text: string): string {
  // Code spans first, kept out of the other rules by a placeholder (a private-use character,
  // removed from the text beforehand).
  const spans: string[] = [];
  let html = escapeHtml(text.replace(/\uE000/g, '')).replace(/`([^`]+)`/g, (_, code: string) => {
    spans.push(`<code>${code}</code>`);
    return `\uE000${spans.length - 1}\uE000`;
  });
  html = html
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, href: string) =>
      // `href` is already escaped: `&amp;` stays valid inside the attribute.
      SAFE_HREF.test(href) ? `<a href="${href}">${label}</a>` : whole,
    );
  return html.replace(/\uE000(\d+)\uE000/g, (_, i: string) => spans[Number(i)] ?? '');
}

/** A description as blocks: paragraphs split on blank lines, `- ` lines as a list. */
export function markdown(text: string | undefined): string {
  if (!text) return '';
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => /^\s*[-*] /.test(line))) {
        const items = lines.map((line) => `<li>${inline(line.replace(/^\s*[-*] /, ''))}</li>`);
        return `<ul>${items.join('')}</ul>`;
      }
      return `<p>${lines.map(inline).join('<br>')}</p>`;
    })
    .join('');
}
