import {
  escapeHtml,
  htmlToText,
  renderRaw,
  renderTemplate,
  substituteHtml,
  substituteSubject,
} from '../../src/modules/email/email-render';

const noLayout = { header: '', footer: '' };

describe('email rendering', () => {
  it('escapes &, <, >, quotes and backticks in HTML', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y' \``)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &#96;',
    );
  });

  it('substitutes {{name}} and {{ name }} with escaped values; unknown placeholders become empty', () => {
    const html = substituteHtml('<p>Hi {{name}}, {{ name }}! [{{missing}}] <a href="{{link}}">go</a></p>', {
      name: '<script>alert(1)</script>',
      link: 'https://x.test/?a=1&b="2"',
    });
    expect(html).toBe(
      '<p>Hi &lt;script&gt;alert(1)&lt;/script&gt;, &lt;script&gt;alert(1)&lt;/script&gt;! [] ' +
        '<a href="https://x.test/?a=1&amp;b=&quot;2&quot;">go</a></p>',
    );
    expect(html).not.toContain('<script>');
  });

  it('renders numbers and booleans; null, undefined and inherited names are empty', () => {
    expect(
      substituteHtml('{{n}} {{b}} {{z}} {{u}} {{toString}} {{constructor}}', {
        n: 3,
        b: false,
        z: null,
        u: undefined,
      }),
    ).toBe('3 false    ');
  });

  it('does not re-read placeholders inside values', () => {
    expect(substituteHtml('{{a}}', { a: '{{b}}', b: 'nope' })).toBe('{{b}}');
  });

  it('keeps subjects on one line (no header injection) with plain values', () => {
    expect(substituteSubject('Hello {{name}}', { name: 'Ada\r\nBcc: evil@example.com & co' })).toBe(
      'Hello Ada Bcc: evil@example.com & co',
    );
  });

  it('renders a template: layout around the HTML, escaped HTML, plain subject and text', () => {
    const out = renderTemplate(
      { subject: 'Welcome {{name}}', html: '<p>Hi {{name}}</p>', text: 'Hi {{name}}, see {{link}}' },
      { name: `O'Brien <b>&</b>`, link: 'https://app.test/a?token=abc' },
      { header: '<header>{{appUrl}}</header>', footer: '<footer>bye</footer>' },
    );
    expect(out.subject).toBe(`Welcome O'Brien <b>&</b>`);
    expect(out.html).toBe(
      '<header></header><p>Hi O&#39;Brien &lt;b&gt;&amp;&lt;/b&gt;</p><footer>bye</footer>',
    );
    expect(out.text).toBe(`Hi O'Brien <b>&</b>, see https://app.test/a?token=abc`);
  });

  it('derives the text part from the HTML when the template has none', () => {
    const out = renderTemplate(
      {
        subject: 's',
        html: '<p>Hello {{name}},</p>\n<p><a href="{{link}}">Confirm</a> &amp; enjoy</p><script>x()</script>',
        text: null,
      },
      { name: '<Ada>', link: 'http://localhost:3000/admin/verify-email?token=t0k' },
      noLayout,
    );
    expect(out.text).toBe(
      'Hello <Ada>,\n\nConfirm (http://localhost:3000/admin/verify-email?token=t0k) & enjoy',
    );
  });

  it('wraps raw HTML in the layout without touching the body', () => {
    const out = renderRaw(
      { subject: 'Line\nbreak', html: '<p>{{not-a-var}}</p>' },
      { header: '<h1>{{email}}</h1>', footer: '' },
      { email: 'a<b>@x.test' },
    );
    expect(out).toEqual({
      subject: 'Line break',
      html: '<h1>a&lt;b&gt;@x.test</h1><p>{{not-a-var}}</p>',
      text: '{{not-a-var}}',
    });
  });

  it('htmlToText keeps link targets, lists and line breaks and decodes entities', () => {
    expect(
      htmlToText(
        '<ul><li>one</li><li>two</li></ul>a<br>b &#39;q&#39; &#x41; &nbsp;<a href="https://x">https://x</a>',
      ),
    ).toBe("- one\n\n- two\n\na\nb 'q' A https://x");
  });
});
