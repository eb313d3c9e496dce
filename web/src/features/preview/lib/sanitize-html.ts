import DOMPurify from 'dompurify';

/**
 * A document's HTML (an email's body, a Word file converted by mammoth) made safe to show in the page: no
 * scripts, event handlers, forms, frames, styles (they would restyle the app) or remote images (they tell the
 * sender that the mail was read); links open in a new tab without the page as opener.
 */
const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!src.startsWith('data:image/')) node.remove();
  }
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

export function sanitizeHtml(html: string): string {
  // DOMPurify answers its input unchanged where it cannot work; such HTML is never shown.
  if (!purify.isSupported) throw new Error('This browser cannot show this document safely. Download it to read it.');
  return purify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'select', 'textarea', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'class', 'id'],
    ALLOW_DATA_ATTR: false,
  });
}
