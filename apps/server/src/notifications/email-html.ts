import { escapeHtml } from '@offzero/shared/web/prerender';

/** A web address in a message, without the punctuation that ends the sentence around it. */
const LINK = /https?:\/\/[^\s<>"]*[^\s<>".,;:!?)]/g;

/** One line of the text as HTML: escaped, its web addresses as links. */
function lineHtml(line: string): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(LINK)) {
    const url = match[0];
    html += `${escapeHtml(line.slice(last, match.index))}<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

/**
 * The HTML part of an e-mail whose words are `text`: each paragraph (text between blank lines) a `<p>`,
 * line breaks kept, web addresses as links, everything else escaped. No styles or images to load.
 */
export function emailHtml(subject: string, text: string): string {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph.split('\n').map(lineHtml).join('<br>\n')}</p>`);
  return (
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n` +
    `<body>\n${paragraphs.join('\n')}\n</body></html>\n`
  );
}
