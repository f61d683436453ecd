/**
 * Template rendering: pure functions, no Nest, no database (unit-tested in test/unit).
 *
 * `{{name}}` placeholders (spaces inside the braces allowed) take the value of the variable of
 * that name. In HTML the value is escaped, so a variable can never inject markup; in the subject
 * and the text part it is the plain value (the subject loses CR/LF, so no header can be injected).
 * An unknown placeholder becomes empty. The shared layout's header and footer wrap every HTML body
 * and get the same variables.
 */

/** A variable value; anything else renders as empty. */
export type TemplateValue = string | number | boolean | null | undefined;
export type TemplateVariables = Record<string, TemplateValue>;

export interface TemplateSource {
  subject: string;
  html: string;
  /** The plain-text part; when empty one is derived from the HTML. */
  text?: string | null;
}

export interface EmailLayout {
  header: string;
  footer: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c]);
}

function plain(variables: TemplateVariables, name: string): string {
  if (!Object.prototype.hasOwnProperty.call(variables, name)) {
    return '';
  }
  const v = variables[name];
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** Replaces placeholders with HTML-escaped values. */
export function substituteHtml(source: string, variables: TemplateVariables): string {
  return source.replace(PLACEHOLDER, (_m, name: string) => escapeHtml(plain(variables, name)));
}

/** Replaces placeholders with the plain values (text parts). */
export function substituteText(source: string, variables: TemplateVariables): string {
  return source.replace(PLACEHOLDER, (_m, name: string) => plain(variables, name));
}

/** A subject line: plain values, no CR/LF (header injection), no surrounding blanks. */
export function substituteSubject(source: string, variables: TemplateVariables): string {
  return substituteText(source, variables)
    .replace(/[\r\n]+/g, ' ')
    .trim();
}

/** The layout around an HTML body. */
export function wrapHtml(bodyHtml: string, layout: EmailLayout): string {
  return `${layout.header}${bodyHtml}${layout.footer}`;
}

export function renderTemplate(
  template: TemplateSource,
  variables: TemplateVariables,
  layout: EmailLayout,
): RenderedEmail {
  const html = substituteHtml(wrapHtml(template.html, layout), variables);
  const textSource = template.text?.trim() ? template.text : htmlToText(template.html);
  return {
    subject: substituteSubject(template.subject, variables),
    html,
    text: substituteText(textSource, variables),
  };
}

/** A message whose HTML is given as is (no placeholders), wrapped in the layout. */
export function renderRaw(
  message: { subject: string; html: string; text?: string | null },
  layout: EmailLayout,
  layoutVariables: TemplateVariables,
): RenderedEmail {
  return {
    subject: message.subject.replace(/[\r\n]+/g, ' ').trim(),
    html: `${substituteHtml(layout.header, layoutVariables)}${message.html}${substituteHtml(layout.footer, layoutVariables)}`,
    text: message.text?.trim() ? message.text : htmlToText(message.html),
  };
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * A plain-text rendering of simple email HTML, for the text part when a template has none: links
 * become `label (url)`, blocks become lines, tags go, entities are decoded. Placeholders pass
 * through untouched, so the text gets the plain values afterwards.
 */
export function htmlToText(html: string): string {
  return (
    html
      .replace(/<(script|style|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(
        /<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')[^>]*>([\s\S]*?)<\/a\s*>/gi,
        (_m, dq: string | undefined, sq: string | undefined, label: string) => {
          const href = dq ?? sq ?? '';
          const text = label.replace(/<[^>]*>/g, '').trim();
          return text && text !== href ? `${text} (${href})` : href;
        },
      )
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|h[1-6]|li|tr|table|blockquote)\s*>/gi, '\n\n')
      .replace(/<li\b[^>]*>/gi, '- ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => decodeEntity(e) ?? m)
      // Spaces and tabs collapse; at most one blank line between blocks.
      .replace(/[ \t]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

function decodeEntity(e: string): string | undefined {
  if (e[0] === '#') {
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return ENTITIES[e.toLowerCase()];
}
