/** Lexical JSON builders for richText fields in tests (the node shapes @lexical/headless exports). */

export const text = (s: string, format = 0) => ({
  type: 'text',
  version: 1,
  text: s,
  format,
  detail: 0,
  mode: 'normal',
  style: '',
});

export const paragraph = (...children: object[]) => ({
  type: 'paragraph',
  version: 1,
  format: '',
  indent: 0,
  direction: null,
  textFormat: 0,
  textStyle: '',
  children,
});

export const link = (url: string, label: string) => ({
  type: 'link',
  version: 1,
  url,
  rel: null,
  target: null,
  title: null,
  format: '',
  indent: 0,
  direction: null,
  children: [text(label)],
});

export const doc = (...children: object[]) => ({
  root: { type: 'root', version: 1, format: '', indent: 0, direction: null, children },
});
