import { csvCell, csvRow } from '../../src/common/csv';

describe('csvCell', () => {
  it.each<[unknown, string]>([
    [undefined, ''],
    [null, ''],
    ['plain', 'plain'],
    ['', ''],
    [true, 'true'],
    [false, 'false'],
    [new Date('2025-05-01T00:00:00Z'), '2025-05-01T00:00:00.000Z'],
    ['tab\tinside', 'tab\tinside'],
  ])('writes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each<[unknown, string]>([
    [-5, '-5'],
    [-0.25, '-0.25'],
    [0, '0'],
    [42, '42'],
    [1e21, '1e+21'],
    [-1e-7, '-1e-7'],
    [12n, '12'],
    [-12n, '-12'],
  ])('leaves the number %p as a number: %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each<[string, string]>([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-5', "'-5"],
    ['-', "'-"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
  ])('neutralises the text %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each<[string, string]>([
    ['a,b', '"a,b"'],
    ['a;b', '"a;b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ["x;=cmd|' /C calc'!A0", `"x;=cmd|' /C calc'!A0"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['-1;=2', `"'-1;=2"`],
  ])('quotes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes an object as JSON, quoted', () => {
    expect(csvCell({ note: 'a,"b"', n: -5 })).toBe('"{""note"":""a,\\""b\\"""",""n"":-5}"');
    expect(csvCell(['x'])).toBe('"[""x""]"');
  });

  it('treats a number that is not finite as text', () => {
    expect(csvCell(Number.NaN)).toBe('NaN');
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(csvCell(Number.NEGATIVE_INFINITY)).toBe("'-Infinity");
  });
});

describe('csvRow', () => {
  it('joins the cells with commas and ends with CRLF', () => {
    expect(csvRow(['-2', -5, "x;=cmd|' /C calc'!A0", null, true])).toBe(
      `'-2,-5,"x;=cmd|' /C calc'!A0",,true\r\n`,
    );
  });
});
