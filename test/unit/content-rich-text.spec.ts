import { createHeadlessEditor } from '@lexical/headless';
import { $createLinkNode, AutoLinkNode, LinkNode } from '@lexical/link';
import { $createListItemNode, $createListNode, ListItemNode, ListNode } from '@lexical/list';
import { $createHeadingNode, $createQuoteNode, HeadingNode, QuoteNode } from '@lexical/rich-text';
import {
  $createLineBreakNode,
  $createParagraphNode,
  $createTabNode,
  $createTextNode,
  $getRoot,
} from 'lexical';
import * as vm from 'node:vm';
import { checkRichText, renderRichText } from '../../src/modules/content/entries/rich-text';

// ---------------------------------------------------------------------------------------------
// Document builders (the shapes editor.getEditorState().toJSON() writes)

type Json = Record<string, unknown>;

const text = (t: string, format: number | string = 0, extra: Json = {}): Json => ({
  type: 'text',
  text: t,
  format,
  detail: 0,
  mode: 'normal',
  style: '',
  version: 1,
  ...extra,
});
const element = (type: string, children: unknown[], extra: Json = {}): Json => ({
  type,
  children,
  direction: 'ltr',
  format: '',
  indent: 0,
  version: 1,
  ...extra,
});
const p = (...children: unknown[]): Json => element('paragraph', children, { textFormat: 0, textStyle: '' });
const h = (tag: string, ...children: unknown[]): Json => element('heading', children, { tag });
const quote = (...children: unknown[]): Json => element('quote', children);
const list = (listType: string, items: unknown[], start = 1): Json =>
  element('list', items, { listType, start, tag: listType === 'number' ? 'ol' : 'ul' });
const li = (...children: unknown[]): Json => element('listitem', children, { value: 1 });
const link = (url: unknown, children: unknown[], extra: Json = {}): Json =>
  element('link', children, { url, rel: null, target: null, title: null, ...extra });
const br = (): Json => ({ type: 'linebreak', version: 1 });
const tab = (): Json => ({
  type: 'tab',
  text: '\t',
  format: 0,
  detail: 2,
  mode: 'normal',
  style: '',
  version: 1,
});
const doc = (...children: unknown[]): { root: Json } => ({ root: element('root', children) });

/** Renders after checking that the document is accepted: the pair every read goes through. */
function render(value: unknown): string {
  expect(checkRichText(value)).toBeNull();
  return renderRichText(value);
}

// ---------------------------------------------------------------------------------------------
// The output allow-list, as a tokenizer: every token must be escaped text or an allowed tag.

const TEXT = String.raw`(?:[^<>&"']|&(?:amp|lt|gt|quot|#39);)+`;
const OPEN = String.raw`<(p|h[1-6]|blockquote|ul|li|strong|em|u|s|code|sub|sup)>`;
const OL = String.raw`<(ol)(?: start="-?\d+")?>`;
const A = String.raw`<(a) href="((?:[^<>&"']|&(?:amp|lt|gt|quot|#39);)+)"(?: target="_blank" rel="noopener noreferrer")?>`;
const CLOSE = String.raw`</(p|h[1-6]|blockquote|ul|ol|li|a|strong|em|u|s|code|sub|sup)>`;
const TOKEN = new RegExp(`${TEXT}|${OPEN}|${OL}|${A}|${CLOSE}|<br>`, 'y');
const SAFE_HREF = /^(?:(?:https?|mailto|tel):|[^:/?#]*(?:[/?#]|$))/i;

function decode(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );
}

/** Throws unless `html` is made only of allowed tokens, with tags properly nested and safe hrefs. */
function assertAllowedHtml(html: string): void {
  const open: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < html.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(html);
    if (m === null) {
      throw new Error(`disallowed output at ${at}: ${JSON.stringify(html.slice(at, at + 60))}`);
    }
    const opened = m[1] ?? m[2] ?? m[3];
    const closed = m[5];
    if (opened !== undefined) {
      open.push(opened);
    } else if (closed !== undefined && open.pop() !== closed) {
      throw new Error(`</${closed}> closes something else in ${JSON.stringify(html)}`);
    }
    if (m[4] !== undefined) {
      const href = decode(m[4]);
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      if (!SAFE_HREF.test(href) || href.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(href)) {
        throw new Error(`unsafe href ${JSON.stringify(href)}`);
      }
    }
  }
  if (open.length > 0) {
    throw new Error(`unclosed <${open.join('>, <')}> in ${JSON.stringify(html)}`);
  }
}

/** Nests `levels` objects under `key`, iteratively (a recursive builder would be the thing to overflow). */
function deeplyNested(levels: number, wrap: (inner: unknown) => unknown): unknown {
  let value: unknown = text('bottom');
  for (let i = 0; i < levels; i++) {
    value = wrap(value);
  }
  return value;
}

/** mulberry32: a small seeded generator, so the property test is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------

describe('rich text (Lexical JSON)', () => {
  describe('rendering valid documents', () => {
    it('renders every node type to exact HTML', () => {
      const value = doc(
        h('h1', text('Title')),
        h('h2', text('Sub')),
        h('h3', text('3')),
        h('h4', text('4')),
        h('h5', text('5')),
        h('h6', text('6')),
        p(text('Hello '), text('world', 1), text('!')),
        p(),
        quote(text('Quoted'), br(), text('second line')),
        p(text('a'), tab(), text('b'), br(), text('c')),
        list('bullet', [li(text('one')), li(text('two'))]),
        list('number', [li(text('first')), li(text('second'))], 3),
        list('check', [{ ...li(text('done')), checked: true }, li(text('todo'))]),
        p(
          link('https://example.com/', [text('site')]),
          text(' and '),
          element('autolink', [text('x.test')], { url: 'https://x.test' }),
        ),
      );
      expect(render(value)).toBe(
        '<h1>Title</h1><h2>Sub</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>' +
          '<p>Hello <strong>world</strong>!</p>' +
          '<p><br></p>' +
          '<blockquote>Quoted<br>second line</blockquote>' +
          '<p>a\tb<br>c</p>' +
          '<ul><li>one</li><li>two</li></ul>' +
          '<ol start="3"><li>first</li><li>second</li></ol>' +
          '<ul><li>done</li><li>todo</li></ul>' +
          '<p><a href="https://example.com/">site</a> and <a href="https://x.test">x.test</a></p>',
      );
    });

    it('renders an empty document as an empty string, and accepts the compact form', () => {
      expect(render(doc())).toBe('');
      expect(render({ root: { type: 'root' } })).toBe('');
      expect(
        render({
          root: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }] },
        }),
      ).toBe('<p>x</p>');
      expect(render({ root: { type: 'root', children: [{ type: 'heading' }, { type: 'list' }] } })).toBe(
        '<h1></h1><ol></ol>',
      );
    });

    it('writes start on ol only for an integer other than 1', () => {
      expect(render(doc(list('number', [li(text('a'))], 1)))).toBe('<ol><li>a</li></ol>');
      expect(render(doc(list('number', [li(text('a'))], 0)))).toBe('<ol start="0"><li>a</li></ol>');
      expect(render(doc(list('number', [li(text('a'))], -2)))).toBe('<ol start="-2"><li>a</li></ol>');
      expect(render(doc(list('bullet', [li(text('a'))], 5)))).toBe('<ul><li>a</li></ul>');
      expect(render(doc(element('list', [li(text('a'))], { listType: 'ol' })))).toBe('<ol><li>a</li></ol>');
    });

    it('puts a nested list inside the previous item, at any depth', () => {
      const value = doc(
        list('bullet', [
          li(text('a')),
          li(list('bullet', [li(text('a.1')), li(list('number', [li(text('a.1.i'))], 2)), li(text('a.2'))])),
          li(text('b')),
        ]),
      );
      expect(render(value)).toBe(
        '<ul><li>a<ul><li>a.1<ol start="2"><li>a.1.i</li></ol></li><li>a.2</li></ul></li><li>b</li></ul>',
      );
      // A nested list with no item before it gets an item of its own.
      expect(render(doc(list('number', [li(list('bullet', [li(text('x'))])), li(text('y'))])))).toBe(
        '<ol><li><ul><li>x</li></ul></li><li>y</li></ol>',
      );
      // An item holding text and a list keeps both.
      expect(render(doc(list('bullet', [li(text('t'), list('bullet', [li(text('u'))]))])))).toBe(
        '<ul><li>t<ul><li>u</li></ul></li></ul>',
      );
    });

    it('wraps formats in a fixed order, strong outermost, code innermost', () => {
      const cases: Array<[number | string, string]> = [
        [1, '<strong>x</strong>'],
        [2, '<em>x</em>'],
        [8, '<u>x</u>'],
        [4, '<s>x</s>'],
        [16, '<code>x</code>'],
        [32, '<sub>x</sub>'],
        [64, '<sup>x</sup>'],
        [3, '<strong><em>x</em></strong>'],
        [
          1 | 2 | 4 | 8 | 16 | 32 | 64,
          '<strong><em><u><s><sub><sup><code>x</code></sup></sub></s></u></em></strong>',
        ],
        [9, '<strong><u>x</u></strong>'],
        ['bold', '<strong>x</strong>'],
        ['italic', '<em>x</em>'],
        // highlight, lowercase, uppercase, capitalize: not rendered.
        [128 | 256 | 512 | 1024, 'x'],
      ];
      for (const [format, html] of cases) {
        expect([format, render(doc(p(text('x', format))))]).toEqual([format, `<p>${html}</p>`]);
      }
      expect(render(doc(p(text('', 1), text('y', 2))))).toBe('<p><em>y</em></p>');
    });

    it('ignores alignment, indent, direction and text style', () => {
      const value = doc(
        element('paragraph', [text('x', 0, { style: 'color: red; background: url(javascript:alert(1))' })], {
          format: 'center',
          indent: 3,
          direction: 'rtl',
        }),
        element('heading', [text('y')], { tag: 'h2', format: 'right', indent: 1 }),
      );
      expect(render(value)).toBe('<p>x</p><h2>y</h2>');
    });

    it('escapes text: <script>, quotes, ampersands', () => {
      expect(render(doc(p(text(`<script>alert("x")</script> & 'y' &amp; <b onclick=1>`))))).toBe(
        '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &amp;amp; &lt;b onclick=1&gt;</p>',
      );
      expect(render(doc(p(text('<img src=x onerror=alert(1)>', 1))))).toBe(
        '<p><strong>&lt;img src=x onerror=alert(1)&gt;</strong></p>',
      );
      expect(render(doc(p(text('emoji 😀 and ünïcödé'))))).toBe('<p>emoji 😀 and ünïcödé</p>');
    });

    it('accepts and renders what a Lexical editor writes, in both JSON forms', () => {
      const editor = createHeadlessEditor({
        nodes: [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, AutoLinkNode],
        onError: (error) => {
          throw error;
        },
      });
      editor.update(
        () => {
          const nested = $createListNode('bullet').append(
            $createListItemNode().append($createTextNode('inner')),
          );
          $getRoot().append(
            $createHeadingNode('h2').append($createTextNode('Heading')),
            $createParagraphNode().append(
              $createTextNode('bold').toggleFormat('bold'),
              $createTabNode(),
              $createLinkNode('https://example.com/?a=1&b=2', { target: '_blank', rel: 'nofollow' }).append(
                $createTextNode('link'),
              ),
              $createLineBreakNode(),
              $createTextNode('end'),
            ),
            $createListNode('number', 4).append(
              $createListItemNode().append($createTextNode('outer')),
              $createListItemNode().append(nested),
            ),
            $createQuoteNode().append($createTextNode('q')),
          );
        },
        { discrete: true },
      );
      const expected =
        '<h2>Heading</h2>' +
        '<p><strong>bold</strong>\t<a href="https://example.com/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">link</a><br>end</p>' +
        '<ol start="4"><li>outer<ul><li>inner</li></ul></li></ol>' +
        '<blockquote>q</blockquote>';
      const state = editor.getEditorState();
      expect(render(state.toJSON())).toBe(expected);
      expect(render(state.toJSON(true))).toBe(expected);
      expect(render(JSON.parse(JSON.stringify(state)))).toBe(expected);
    });

    it('gives the same output however calls interleave (one shared editor)', () => {
      const a = doc(p(text('a', 1)));
      const b = doc(list('number', [li(text('b'))], 7));
      const first = renderRichText(a);
      expect(checkRichText(doc({ type: 'image' }))).not.toBeNull();
      expect(renderRichText({ root: { type: 'root', children: [null] } })).toBe('');
      expect(renderRichText(b)).toBe('<ol start="7"><li>b</li></ol>');
      expect(renderRichText(a)).toBe(first);
      expect(first).toBe('<p><strong>a</strong></p>');
    });
  });

  describe('links', () => {
    const rendered = (url: unknown, extra: Json = {}): string =>
      render(doc(p(link(url, [text('click')], extra))));

    it('keeps http, https, mailto, tel and relative references', () => {
      for (const url of [
        'https://example.com/a?b=c#d',
        'http://example.com',
        'HTTPS://EXAMPLE.COM',
        'mailto:someone@example.com',
        'tel:+1-555-0100',
        '/relative/path',
        'page.html',
        '../up',
        './here',
        '#fragment',
        '?q=1',
        '/a:b',
        'path/with:colon',
      ]) {
        expect(rendered(url)).toBe(`<p><a href="${url}">click</a></p>`);
      }
      expect(rendered('  https://example.com/  ')).toBe('<p><a href="https://example.com/">click</a></p>');
    });

    it('drops the <a> of hostile or unknown URLs and keeps the text', () => {
      for (const url of [
        'javascript:alert(1)',
        ' JaVaScRiPt:alert(1)',
        '\u00a0javascript:alert(1)',
        'java\tscript:alert(1)',
        'java\nscript:alert(1)',
        'java\rscript:alert(1)',
        '\u0001javascript:alert(1)',
        'javascript\u000b:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
        'vbscript:msgbox(1)',
        'file:///etc/passwd',
        'ftp://example.com',
        'sms:+15550100',
        'blob:https://example.com/uuid',
        '//evil.com',
        '//evil.com/path',
        '/\\evil.com',
        '\\\\evil.com',
        'https:\\\\evil.com',
        'ｊavascript:alert(1)',
        'java script:alert(1)',
        'x:y',
        '',
        '   ',
      ]) {
        expect([url, rendered(url)]).toEqual([url, '<p>click</p>']);
      }
      // NUL is refused at write time; were it stored anyway, the link would still not render.
      const withNul = doc(p(link('java\u0000script:alert(1)', [text('click')])));
      expect(checkRichText(withNul)).toBe('rich text must not contain NUL characters or unpaired surrogates');
      expect(renderRichText(withNul)).toBe('<p>click</p>');
      // Entities are not decoded from stored URLs: this is a relative path, escaped.
      expect(rendered('javascript&colon;alert(1)')).toBe(
        '<p><a href="javascript&amp;colon;alert(1)">click</a></p>',
      );
    });

    it('escapes quotes and markup inside href', () => {
      expect(rendered('https://x.test/a"onmouseover="alert(1)')).toBe(
        '<p><a href="https://x.test/a&quot;onmouseover=&quot;alert(1)">click</a></p>',
      );
      expect(rendered("https://x.test/'><script>")).toBe(
        '<p><a href="https://x.test/&#39;&gt;&lt;script&gt;">click</a></p>',
      );
    });

    it('adds target and rel only for a stored target of _blank; ignores the stored rel and title', () => {
      expect(rendered('https://x.test', { target: '_blank', rel: 'opener', title: 'T' })).toBe(
        '<p><a href="https://x.test" target="_blank" rel="noopener noreferrer">click</a></p>',
      );
      expect(rendered('https://x.test', { target: '_self', rel: 'nofollow' })).toBe(
        '<p><a href="https://x.test">click</a></p>',
      );
      expect(rendered('https://x.test', { target: '" onclick="x' })).toBe(
        '<p><a href="https://x.test">click</a></p>',
      );
      expect(rendered('javascript:x', { target: '_blank' })).toBe('<p>click</p>');
    });

    it('renders an unlinked autolink as its text', () => {
      const auto = (isUnlinked: unknown): unknown =>
        doc(p(element('autolink', [text('x.test')], { url: 'https://x.test', isUnlinked })));
      expect(render(auto(true))).toBe('<p>x.test</p>');
      expect(render(auto(false))).toBe('<p><a href="https://x.test">x.test</a></p>');
      expect(checkRichText(auto('yes'))).toBe('root.children.0.children.0.isUnlinked must be a boolean');
    });

    it('renders formatted text, breaks and tabs inside a link', () => {
      expect(render(doc(p(link('/x', [text('a', 1), br(), tab(), text('b', 2)]))))).toBe(
        '<p><a href="/x"><strong>a</strong><br>\t<em>b</em></a></p>',
      );
    });
  });

  describe('checkRichText refusals', () => {
    it('refuses values that are not a document', () => {
      for (const value of [undefined, null, 0, 'x', '{"root":{"type":"root"}}', [], [doc()], true]) {
        expect(checkRichText(value)).toBe('rich text must be a Lexical document object');
      }
      expect(checkRichText({})).toBe('rich text must have a root object');
      expect(checkRichText({ root: [] })).toBe('rich text must have a root object');
      expect(checkRichText({ root: 'root' })).toBe('rich text must have a root object');
      expect(checkRichText({ root: { children: [] } })).toBe('root.type must be "root"');
      expect(checkRichText({ root: element('paragraph', []) })).toBe('root.type must be "root"');
    });

    it('refuses malformed nodes and children', () => {
      expect(checkRichText({ root: { type: 'root', children: {} } })).toBe('root.children must be an array');
      expect(checkRichText({ root: { type: 'root', children: 'x' } })).toBe('root.children must be an array');
      expect(checkRichText(doc(p(text('a')), null))).toBe('root.children.1 must be a node object');
      expect(checkRichText(doc(p(text('a'), 'b')))).toBe('root.children.0.children.1 must be a node object');
      expect(checkRichText(doc({ children: [] }))).toBe('root.children.0.type must be a string');
      expect(checkRichText(doc({ type: 5 }))).toBe('root.children.0.type must be a string');
      expect(checkRichText(doc(element('paragraph', {} as unknown[])))).toBe(
        'root.children.0.children must be an array',
      );
      expect(checkRichText(doc(p({ ...text('a'), children: [text('b')] })))).toBe(
        'root.children.0.children.0: text nodes have no children',
      );
      expect(checkRichText(doc(p({ ...text('a'), children: [] })))).toBeNull();
      expect(checkRichText(doc({ ...p(text('x')), $slots: { hidden: p(text('y')) } }))).toBe(
        'root.children.0.$slots is not supported',
      );
    });

    it('refuses unknown node types', () => {
      for (const type of [
        'image',
        'code',
        'table',
        'horizontalrule',
        'artificial',
        'toString',
        '__proto__',
        'constructor',
        '',
      ]) {
        expect(checkRichText(doc(p(text('a')), { type, children: [] }))).toBe(
          `root.children.1: unknown node type ${JSON.stringify(type)}`,
        );
      }
      expect(checkRichText(doc(p({ type: 'mention', text: 'x' })))).toBe(
        'root.children.0.children.0: unknown node type "mention"',
      );
      expect(renderRichText(doc(p(text('a')), { type: 'image', src: 'x' }))).toBe('');
    });

    it('refuses nodes in the wrong place', () => {
      const cases: Array<[unknown, string]> = [
        [doc(text('loose')), 'root.children.0: text is not allowed inside root'],
        [doc(li(text('x'))), 'root.children.0: listitem is not allowed inside root'],
        [doc(br()), 'root.children.0: linebreak is not allowed inside root'],
        [doc(p(p(text('x')))), 'root.children.0.children.0: paragraph is not allowed inside paragraph'],
        [doc(quote(p(text('x')))), 'root.children.0.children.0: paragraph is not allowed inside quote'],
        [doc(h('h2', list('bullet', []))), 'root.children.0.children.0: list is not allowed inside heading'],
        [doc(list('bullet', [text('x')])), 'root.children.0.children.0: text is not allowed inside list'],
        [
          doc(list('bullet', [p(text('x'))])),
          'root.children.0.children.0: paragraph is not allowed inside list',
        ],
        [
          doc(list('bullet', [li(p(text('x')))])),
          'root.children.0.children.0.children.0: paragraph is not allowed inside listitem',
        ],
        [
          doc(p(link('/a', [link('/b', [text('x')])]))),
          'root.children.0.children.0.children.0: link is not allowed inside link',
        ],
        [
          doc(p(link('/a', [element('autolink', [], { url: '/b' })]))),
          'root.children.0.children.0.children.0: autolink is not allowed inside link',
        ],
        [doc(p(li(text('x')))), 'root.children.0.children.0: listitem is not allowed inside paragraph'],
        [doc(element('root', [])), 'root.children.0: root is not allowed inside root'],
      ];
      for (const [value, message] of cases) {
        expect(checkRichText(value)).toBe(message);
        expect(renderRichText(value)).toBe('');
      }
    });

    it('refuses properties of the wrong type that Lexical would silently replace', () => {
      const cases: Array<[unknown, string]> = [
        [doc(p(text(5 as unknown as string))), 'root.children.0.children.0.text must be a string'],
        [
          doc(p(text('x', -1))),
          'root.children.0.children.0.format must be a format bitmask or a format name',
        ],
        [
          doc(p(text('x', 1.5))),
          'root.children.0.children.0.format must be a format bitmask or a format name',
        ],
        [
          doc(p(text('x', 2 ** 31))),
          'root.children.0.children.0.format must be a format bitmask or a format name',
        ],
        [
          doc(p(text('x', 'blink'))),
          'root.children.0.children.0.format must be a format bitmask or a format name',
        ],
        [doc(h('h7', text('x'))), 'root.children.0.tag must be one of h1, h2, h3, h4, h5, h6'],
        [doc(h('<script>', text('x'))), 'root.children.0.tag must be one of h1, h2, h3, h4, h5, h6'],
        [doc(h('H1', text('x'))), 'root.children.0.tag must be one of h1, h2, h3, h4, h5, h6'],
        [
          doc(element('list', [], { listType: 'foo' })),
          'root.children.0.listType must be number, bullet or check',
        ],
        [doc(list('number', [], '3' as unknown as number)), 'root.children.0.start must be an integer'],
        [doc(list('number', [], 1.5)), 'root.children.0.start must be an integer'],
        [doc(list('number', [], 1e300)), 'root.children.0.start must be an integer'],
        [doc(p(link(5, [text('x')]))), 'root.children.0.children.0.url must be a string'],
        [
          doc(p(link('/x', [text('x')], { target: {} }))),
          'root.children.0.children.0.target must be a string or null',
        ],
        [
          doc(p(link('/x', [text('x')], { rel: 1 }))),
          'root.children.0.children.0.rel must be a string or null',
        ],
      ];
      for (const [value, message] of cases) {
        expect(checkRichText(value)).toBe(message);
      }
      // Absent properties take Lexical's defaults (the compact form leaves them out).
      expect(
        render(
          doc({ type: 'paragraph', children: [{ type: 'text' }, { type: 'link', children: [text('x')] }] }),
        ),
      ).toBe('<p>x</p>');
    });

    it('refuses NUL and unpaired surrogates in any string, keys included', () => {
      const message = 'rich text must not contain NUL characters or unpaired surrogates';
      expect(checkRichText(doc(p(text('a\u0000b'))))).toBe(message);
      expect(checkRichText(doc(p(text('a\ud83db'))))).toBe(message);
      expect(checkRichText(doc(p(text('a\ude00b'))))).toBe(message);
      expect(checkRichText(doc(p(text('end\ud83d'))))).toBe(message);
      expect(checkRichText(doc(p(link('/\u0000', [text('x')]))))).toBe(message);
      expect(checkRichText(doc({ ...p(text('x')), 'k\u0000': 1 }))).toBe(message);
      expect(checkRichText(doc(p(text('😀\ud83d\ude00'))))).toBeNull();
    });

    it('refuses values that are not JSON data; skips undefined properties as JSON does', () => {
      const message = 'rich text must be JSON data';
      expect(checkRichText(doc(p(text('x', 0, { style: () => 1 }))))).toBe(message);
      expect(checkRichText(doc(p(text('x', 0, { style: new Date(0) }))))).toBe(message);
      expect(checkRichText(doc(p(text('x', 0, { style: BigInt(1) }))))).toBe(message);
      expect(checkRichText(doc(p(text('x', 0, { style: Symbol('s') }))))).toBe(message);
      expect(checkRichText(doc(p(text('x', 0, { detail: NaN }))))).toBe(
        'rich text must be JSON data (a number is not finite)',
      );
      expect(checkRichText(doc(p(text('x', 0, { detail: Infinity }))))).toBe(
        'rich text must be JSON data (a number is not finite)',
      );
      expect(checkRichText(doc(p(text('x', 0, { style: undefined, extra: undefined }))))).toBeNull();
      expect(checkRichText(doc(p(text('x')), undefined))).toBe('root.children.1 must be a node object');
      const throwing = {
        get root(): unknown {
          throw new Error('boom');
        },
      };
      expect(checkRichText(throwing)).toBe(message);
      expect(renderRichText(throwing)).toBe('');
      const nullProto = Object.assign(Object.create(null) as Json, {
        root: element('root', [p(text('np'))]),
      });
      expect(render(nullProto)).toBe('<p>np</p>');
    });

    it('keeps unknown properties without rendering them', () => {
      const value = {
        extra: { any: ['thing'] },
        root: { ...element('root', [p(text('x'))]), $: { state: 1 }, custom: true },
      };
      expect(render(value)).toBe('<p>x</p>');
    });
  });

  describe('limits', () => {
    /** A one-paragraph document exactly `length` characters long as JSON. */
    function docOfLength(length: number): unknown {
      const base = doc(p(text('')));
      const padding = length - JSON.stringify(base).length;
      const value = doc(p(text('x'.repeat(padding))));
      expect(JSON.stringify(value).length).toBe(length);
      return value;
    }

    it('accepts 1,000,000 characters of JSON and refuses one more', () => {
      expect(checkRichText(docOfLength(1_000_000))).toBeNull();
      expect(checkRichText(docOfLength(1_000_001))).toBe(
        'rich text is longer than 1000000 characters as JSON',
      );
    });

    it('measures length as JSON.stringify writes it (escapes, nested values, undefined members)', () => {
      // Each '\u0001' is 6 characters as JSON, each '"' 2: 200,000 of them are over the limit.
      expect(checkRichText(doc(p(text('\u0001'.repeat(200_000)))))).toBe(
        'rich text is longer than 1000000 characters as JSON',
      );
      const room = 1_000_000 - JSON.stringify(doc(p(text('')))).length;
      expect(checkRichText(doc(p(text('"'.repeat(Math.floor(room / 2))))))).toBeNull();
      expect(checkRichText(doc(p(text('"'.repeat(Math.floor(room / 2) + 1)))))).toBe(
        'rich text is longer than 1000000 characters as JSON',
      );
      // Many small nodes: the size of the structure counts, not only the text.
      const many = doc(...Array.from({ length: 6_000 }, () => p(text('x'), text('y'), text('z'))));
      expect(JSON.stringify(many).length).toBeGreaterThan(1_000_000);
      expect(checkRichText(many)).toBe('rich text is longer than 1000000 characters as JSON');
      const huge = { root: { type: 'root', children: [], junk: new Array(2_000_000).fill(0) } };
      expect(checkRichText(huge)).toBe('rich text is longer than 1000000 characters as JSON');
      for (const sample of [
        doc(p(text('a\\b"c\n\t\u0001', 3)), list('number', [li(text('é😀'))], -4)),
        {
          root: {
            type: 'root',
            children: [],
            x: [undefined, null, true, false, 1.5e-7, -0, { u: undefined }],
            y: {},
          },
        },
      ]) {
        const exact = JSON.stringify(sample).length;
        // Refused only when the limit is under its exact length: probe with padding around it.
        const padded = (pad: number): unknown => ({ ...sample, pad: 'x'.repeat(pad) });
        const padTo = (total: number): number => total - exact - ',"pad":""'.length;
        expect(checkRichText(padded(padTo(1_000_000)))).toBeNull();
        expect(checkRichText(padded(padTo(1_000_001)))).toBe(
          'rich text is longer than 1000000 characters as JSON',
        );
      }
    });

    /** Lists nested to put the deepest list item at node depth `depth` (the root's children are at 1). */
    function nestedLists(depth: number, leaf: unknown[] = []): unknown {
      let node: Json = li(...leaf);
      for (let d = depth - 1; d >= 1; d--) {
        node = d % 2 === 1 ? list('bullet', [node]) : li(node);
      }
      return doc(node);
    }

    it('accepts nodes 32 deep below the root and refuses 33', () => {
      expect(checkRichText(nestedLists(32))).toBeNull();
      expect(checkRichText(nestedLists(32, [text('deep')]))).toBe(
        'rich text nodes are nested more than 32 levels deep',
      );
      expect(renderRichText(nestedLists(32, [text('deep')]))).toBe('');
      expect(renderRichText(nestedLists(32))).toBe(`${'<ul><li>'.repeat(16)}${'</li></ul>'.repeat(16)}`);
    });

    it('accepts 50,000 nodes and refuses 50,001', () => {
      // Tabs: the smallest node as JSON ({"type":"tab"}), so 50,000 stay under the length limit.
      const tabs = (n: number): Json[] => Array.from({ length: n }, () => ({ type: 'tab' }));
      // root + paragraph + 49,998 tabs = 50,000.
      expect(
        checkRichText({ root: { type: 'root', children: [{ type: 'paragraph', children: tabs(49_998) }] } }),
      ).toBeNull();
      expect(
        checkRichText({ root: { type: 'root', children: [{ type: 'paragraph', children: tabs(49_999) }] } }),
      ).toBe('rich text has more than 50000 nodes');
    });

    it('refuses a 100,000-deep value without overflowing the stack, fast', () => {
      const started = Date.now();
      const deepNodes = { root: element('root', [deeplyNested(100_000, (inner) => p(inner))]) };
      const deepJunk = {
        root: { type: 'root', children: [], junk: deeplyNested(100_000, (inner) => ({ x: [inner] })) },
      };
      const deepArrays = { root: { type: 'root', children: deeplyNested(100_000, (inner) => [inner]) } };
      expect(checkRichText(deepNodes)).toBe('rich text is nested more than 80 levels deep');
      expect(checkRichText(deepJunk)).toBe('rich text is nested more than 80 levels deep');
      expect(checkRichText(deepArrays)).toBe('rich text is nested more than 80 levels deep');
      expect(renderRichText(deepNodes)).toBe('');
      expect(renderRichText(deepArrays)).toBe('');
      // Not checked on reads (the write path did), and not rendered either: junk is never looked at.
      expect(renderRichText({ ...deepJunk, root: { ...deepJunk.root, children: [p(text('ok'))] } })).toBe(
        '<p>ok</p>',
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('refuses cyclic values', () => {
      const paragraph: Json = { type: 'paragraph', children: [] };
      (paragraph.children as unknown[]).push(paragraph);
      const cyclic = { root: { type: 'root', children: [paragraph] } };
      expect(checkRichText(cyclic)).toBe('rich text is nested more than 80 levels deep');
      expect(renderRichText(cyclic)).toBe('');
      const root: Json = { type: 'root', children: [] };
      (root.children as unknown[]).push({ type: 'paragraph', children: [], self: root });
      expect(checkRichText({ root })).toBe('rich text is nested more than 80 levels deep');
    });
  });

  describe('robustness', () => {
    it('renderRichText never throws on garbage and returns an empty string', () => {
      const garbage: unknown[] = [
        undefined,
        null,
        0,
        NaN,
        'text',
        '{"root":{"type":"root","children":[]}}',
        [],
        {},
        { root: null },
        { root: 1 },
        { root: { type: 'root', children: [null] } },
        { root: { type: 'root', children: [1, 'x', [], {}] } },
        {
          root: {
            type: 'root',
            children: [{ type: 'paragraph', children: [{ type: 'text', text: { toString: 5 } }] }],
          },
        },
        {
          root: {
            type: 'root',
            children: [{ type: 'list', children: [{ type: 'listitem', value: 'x', children: 7 }] }],
          },
        },
        { root: { type: 'root', children: [{ type: 'link', url: 'javascript:alert(1)', children: [] }] } },
        new Proxy(
          {},
          {
            get() {
              throw new Error('proxy');
            },
          },
        ),
        Object.create({ root: { type: 'root' } }),
        () => 1,
        Symbol('s'),
      ];
      for (const value of garbage) {
        expect(() => renderRichText(value)).not.toThrow();
        expect(renderRichText(value)).toBe('');
        expect(() => checkRichText(value)).not.toThrow();
        expect(checkRichText(value)).not.toBeNull();
      }
    });

    it('never throws and only writes allowed HTML for random documents (seeded)', () => {
      const random = seeded(0x5eed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
      const strings = [
        'plain',
        '',
        '<script>alert(1)</script>',
        '"quoted" & \'single\'',
        'javascript:alert(1)',
        ' JaVaScRiPt:alert(1)',
        'java\tscript:x',
        'data:text/html,<b>',
        '//evil.com',
        '/\\evil.com',
        'https://ok.test/?a=1&b="2"',
        'mailto:a@b.test',
        '#frag',
        '/path',
        '😀',
        'h1',
        'h7',
        '_blank',
        'ol',
        'bullet',
        'check',
        'number',
        'onerror=alert(1)',
      ];
      const types = [
        'root',
        'paragraph',
        'heading',
        'quote',
        'list',
        'listitem',
        'link',
        'autolink',
        'text',
        'tab',
        'linebreak',
        'image',
        'artificial',
        '__proto__',
      ];
      const scalar = (): unknown =>
        pick<() => unknown>([
          () => (random() < 0.9 ? pick(strings) : pick(['\u0000', 'a\ud800', '\udc00b'])),
          () => Math.floor(random() * 4096) - 8,
          () => random() < 0.5,
          () => null,
          () => undefined,
          () => random() * 10,
        ])();
      const anyJson = (depth: number): unknown => {
        if (depth > 4 || random() < 0.5) {
          return scalar();
        }
        if (random() < 0.5) {
          return Array.from({ length: Math.floor(random() * 4) }, () => anyJson(depth + 1));
        }
        const o: Json = {};
        for (let i = Math.floor(random() * 4); i > 0; i--) {
          o[pick(['type', 'children', 'text', 'url', 'format', 'tag', 'x', 'root'])] = anyJson(depth + 1);
        }
        return o;
      };
      // Mostly Lexical-shaped nodes with mostly sensible properties (so many documents are valid and
      // get rendered), each part broken now and then.
      const goodValues: Record<string, readonly unknown[]> = {
        text: strings,
        format: [0, 1, 2, 3, 8, 16, 32, 64, 127, 2047, 'bold', 'code'],
        tag: ['h1', 'h2', 'h3', 'h6'],
        listType: ['bullet', 'number', 'check', 'ol', 'ul'],
        start: [1, 0, 2, 10, -3],
        url: strings,
        target: ['_blank', '_self', null],
        rel: ['nofollow', null],
        style: ['color: red', ''],
        indent: [0, 1, 2],
      };
      const badValues = [-1, 1.5, 'h7', 'blink', 3, {}, [], true, null, 2 ** 40];
      const keysOf: Record<string, readonly string[]> = {
        text: ['text', 'format', 'style'],
        heading: ['tag', 'indent'],
        list: ['listType', 'start'],
        link: ['url', 'target', 'rel'],
        autolink: ['url', 'target'],
      };
      const node = (depth: number, parent: string): unknown => {
        if (random() < 0.02) {
          return anyJson(depth);
        }
        const leafish = depth > 6 || random() < 0.4;
        const type =
          random() < 0.95
            ? pick(
                parent === 'root'
                  ? ['paragraph', 'heading', 'quote', 'list']
                  : parent === 'list'
                    ? ['listitem']
                    : leafish
                      ? ['text', 'text', 'text', 'tab', 'linebreak']
                      : parent === 'listitem'
                        ? ['text', 'link', 'list', 'autolink']
                        : ['text', 'link', 'autolink', 'linebreak'],
              )
            : pick(types);
        const n: Json = { type };
        for (const key of Object.hasOwn(keysOf, type) ? keysOf[type] : []) {
          if (random() < 0.8) {
            n[key] = random() < 0.97 ? pick(goodValues[key]) : pick(badValues);
          }
        }
        if (random() < 0.05) {
          n[pick(Object.keys(goodValues))] = random() < 0.5 ? scalar() : anyJson(depth);
        }
        if (!['text', 'tab', 'linebreak'].includes(type) || random() < 0.02) {
          n.children =
            random() < 0.02
              ? anyJson(depth)
              : Array.from({ length: 1 + Math.floor(random() * 3) }, () => node(depth + 1, type));
        }
        return n;
      };
      let accepted = 0;
      let nonEmpty = 0;
      for (let i = 0; i < 1500; i++) {
        const value =
          random() < 0.1
            ? anyJson(0)
            : {
                root:
                  random() < 0.95
                    ? {
                        type: 'root',
                        children: Array.from({ length: Math.floor(random() * 4) }, () => node(1, 'root')),
                      }
                    : anyJson(1),
              };
        let html = '';
        expect(() => {
          html = renderRichText(value);
        }).not.toThrow();
        expect(typeof html).toBe('string');
        expect(() => assertAllowedHtml(html)).not.toThrow();
        const problem = checkRichText(value);
        if (problem === null) {
          accepted += 1;
          // Every accepted block writes a tag: a document with content never renders as ''.
          const blocks = ((value as { root: Json }).root.children as unknown[] | undefined) ?? [];
          expect(html === '').toBe(blocks.length === 0);
        } else {
          expect(typeof problem).toBe('string');
          expect(problem.length).toBeLessThan(200);
        }
        if (html !== '') {
          nonEmpty += 1;
        }
      }
      // The generator must exercise rendering, not only refusals.
      expect(accepted).toBeGreaterThan(300);
      expect(nonEmpty).toBeGreaterThan(150);
    });

    it('the allow-list assertion itself rejects what it must', () => {
      for (const bad of [
        '<script>',
        '<p class="x">a</p>',
        '<p>a',
        '<a href="javascript:alert(1)">x</a>',
        '<a href="//evil.com">x</a>',
        '<a href="/x" onclick="y">x</a>',
        '<p>"</p>',
        '<ol start="x"></ol>',
        '<p><em>a</p></em>',
      ]) {
        expect(() => assertAllowedHtml(bad)).toThrow();
      }
      expect(() =>
        assertAllowedHtml(
          '<p><a href="/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">x</a><br></p>',
        ),
      ).not.toThrow();
    });

    it('loads and renders without any DOM global, in the test sandbox or the host process', () => {
      expect(renderRichText(doc(p(link('https://x.test', [text('x')]))))).toBe(
        '<p><a href="https://x.test">x</a></p>',
      );
      // (Not navigator: Node 21+ has one of its own.)
      for (const name of [
        'window',
        'document',
        'DOMParser',
        'MutationObserver',
        'HTMLElement',
        'getComputedStyle',
      ]) {
        expect([name, typeof (globalThis as Record<string, unknown>)[name]]).toEqual([name, 'undefined']);
        expect([name, vm.runInThisContext(`typeof globalThis.${name}`)]).toEqual([name, 'undefined']);
      }
    });
  });
});
