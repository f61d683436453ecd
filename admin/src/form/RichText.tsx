import { $createLinkNode, $isLinkNode, AutoLinkNode, LinkNode, TOGGLE_LINK_COMMAND } from '@lexical/link';
import {
  $isListNode,
  INSERT_ORDERED_LIST_COMMAND,
  INSERT_UNORDERED_LIST_COMMAND,
  ListItemNode,
  ListNode,
  REMOVE_LIST_COMMAND,
} from '@lexical/list';
import { type InitialConfigType, LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { OnChangePlugin } from '@lexical/react/LexicalOnChangePlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import {
  $createHeadingNode,
  $createQuoteNode,
  $isHeadingNode,
  $isQuoteNode,
  HeadingNode,
  QuoteNode,
} from '@lexical/rich-text';
import {
  $createParagraphNode,
  $createTextNode,
  $findMatchingParent,
  $getRoot,
  $getSelection,
  $isElementNode,
  $isParagraphNode,
  $isRangeSelection,
  $isRootOrShadowRoot,
  $setSelection,
  type BaseSelection,
  createEditor,
  type EditorState,
  type EditorThemeClasses,
  type ElementNode,
  FORMAT_TEXT_COMMAND,
  type LexicalEditor,
  type LexicalNode,
  type TextFormatType,
} from 'lexical';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import './rich-text.css';

/**
 * The rich-text field's editor (Lexical). It writes the editor state as JSON text, the form's value
 * for a richText field; the service checks and stores it (src/modules/content/entries/rich-text.ts).
 *
 * Only the node types the service accepts are registered (headings, quotes, lists, links, and the
 * core paragraph, text, line break and tab nodes), so nothing else can be typed or pasted in. Styles
 * come from theme class names and rich-text.css: the admin app's CSP allows no inline styles.
 */

const NODES = [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, AutoLinkNode];

const THEME: EditorThemeClasses = {
  paragraph: 'rt-p',
  heading: { h1: 'rt-h1', h2: 'rt-h2', h3: 'rt-h3', h4: 'rt-h4', h5: 'rt-h5', h6: 'rt-h6' },
  quote: 'rt-quote',
  link: 'rt-link',
  list: {
    ul: 'rt-ul',
    ol: 'rt-ol',
    listitem: 'rt-li',
    nested: { listitem: 'rt-li-nested' },
  },
  text: {
    bold: 'rt-bold',
    italic: 'rt-italic',
    underline: 'rt-underline',
    strikethrough: 'rt-strike',
    underlineStrikethrough: 'rt-underline-strike',
    code: 'rt-code',
  },
};

const onError = (error: Error) => console.error('rich-text editor:', error);

/**
 * The stored document when it loads in this editor, else undefined (an empty editor): text that is
 * not JSON, or that Lexical refuses (a node type not registered here), or an empty root.
 */
function initialState(value: string): string | undefined {
  if (value.trim() === '') {
    return undefined;
  }
  try {
    JSON.parse(value);
    // A scratch editor with the same nodes: Lexical reports a document it cannot parse to onError
    // and answers an empty state, which LexicalComposer would throw on.
    let failed = false;
    const probe = createEditor({
      namespace: 'rich-text-probe',
      nodes: NODES,
      onError: (e) => {
        failed = true;
        onError(e);
      },
    });
    if (!probe.parseEditorState(value).isEmpty() && !failed) {
      return value;
    }
  } catch (e) {
    onError(e instanceof Error ? e : new Error(String(e)));
  }
  console.error('rich-text editor: the stored document does not load; the editor starts empty');
  return undefined;
}

/** An empty document (blank paragraphs only) is reported as '', which clears the field. */
function serialize(state: EditorState): string {
  const empty = state.read(() => {
    const root = $getRoot();
    return root.getTextContent().trim() === '' && root.getChildren().every((n) => $isParagraphNode(n));
  });
  return empty ? '' : JSON.stringify(state.toJSON());
}

export default function RichText(props: {
  labelId: string;
  value: string;
  onChange: (json: string) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { labelId, value, invalid, describedBy } = props;
  // Read once: the editor owns the document from then on (the form remounts it for another entry).
  const [initialConfig] = useState<InitialConfigType>(() => ({
    namespace: 'svc-rich-text',
    nodes: NODES,
    theme: THEME,
    onError,
    editorState: initialState(value),
  }));
  const onChange = useRef(props.onChange);
  useEffect(() => {
    onChange.current = props.onChange;
  });
  return (
    <div className="rt">
      <LexicalComposer initialConfig={initialConfig}>
        <Toolbar />
        <RichTextPlugin
          contentEditable={
            <ContentEditable
              className="rt-editable"
              role="textbox"
              aria-multiline="true"
              aria-labelledby={labelId}
              aria-invalid={invalid ? 'true' : undefined}
              aria-describedby={describedBy}
            />
          }
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={isSafeUrl} />
        <OnChangePlugin ignoreSelectionChange onChange={(state) => onChange.current(serialize(state))} />
      </LexicalComposer>
    </div>
  );
}

type Block = 'paragraph' | 'h2' | 'h3' | 'other-heading' | 'quote' | 'bullet' | 'number' | 'check';

interface Formats {
  bold: boolean;
  italic: boolean;
  code: boolean;
  block: Block;
  link: string | null;
}

const NONE: Formats = { bold: false, italic: false, code: false, block: 'paragraph', link: null };

/** The selection's formats and block type, for the toolbar's pressed states. */
function $formats(): Formats | null {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) {
    return null;
  }
  const anchor = selection.anchor.getNode();
  const top =
    anchor.getKey() === 'root'
      ? null
      : $findMatchingParent(anchor, (n) => {
          const parent = n.getParent();
          return parent !== null && $isRootOrShadowRoot(parent);
        });
  let block: Block = 'paragraph';
  if ($isListNode(top)) {
    const list = $findMatchingParent(anchor, $isListNode);
    block = $isListNode(list) ? list.getListType() : top.getListType();
  } else if ($isHeadingNode(top)) {
    const tag = top.getTag();
    block = tag === 'h2' || tag === 'h3' ? tag : 'other-heading';
  } else if ($isQuoteNode(top)) {
    block = 'quote';
  }
  const link =
    $findMatchingParent(anchor, $isLinkNode) ?? $findMatchingParent(selection.focus.getNode(), $isLinkNode);
  return {
    bold: selection.hasFormat('bold'),
    italic: selection.hasFormat('italic'),
    code: selection.hasFormat('code'),
    block,
    link: $isLinkNode(link) ? link.getURL() : null,
  };
}

/** An element holding text (a paragraph, heading, quote or list item), not a container of blocks. */
function $isTextBlock(node: LexicalNode): node is ElementNode {
  if (!$isElementNode(node) || node.isInline() || $isRootOrShadowRoot(node) || $isListNode(node)) {
    return false;
  }
  const first = node.getFirstChild();
  return first === null || !$isElementNode(first) || first.isInline();
}

/** Turns the selected blocks into new ones (their text kept), as @lexical/selection's $setBlocksType. */
function $setBlocks(create: () => ElementNode): void {
  let selection = $getSelection();
  if (!$isRangeSelection(selection)) {
    $getRoot().selectEnd();
    selection = $getSelection();
  }
  if (!$isRangeSelection(selection)) {
    return;
  }
  const blocks = new Map<string, ElementNode>();
  for (const point of [selection.anchor, selection.focus]) {
    const node = point.getNode();
    const block = $isTextBlock(node) ? node : $findMatchingParent(node, $isTextBlock);
    if (block && $isTextBlock(block)) {
      blocks.set(block.getKey(), block);
    }
  }
  for (const node of selection.getNodes()) {
    if ($isTextBlock(node)) {
      blocks.set(node.getKey(), node);
    }
  }
  for (const block of blocks.values()) {
    const next = create();
    if ($isElementNode(block) && !$isListNode(block.getParent())) {
      next.setFormat(block.getFormatType());
      next.setIndent(block.getIndent());
    }
    block.replace(next, true);
  }
}

/**
 * The link addresses the service renders (its renderer is the authority): http(s), mailto and tel,
 * or a reference on this site; never another scheme, control characters, backslashes or `//host`.
 */
function isSafeUrl(url: string): boolean {
  const u = url.trim();
  // eslint-disable-next-line no-control-regex
  if (u === '' || /[\u0000-\u001f\u007f\\]/.test(u) || u.startsWith('//')) {
    return false;
  }
  const scheme = /^([^/?#]*):/.exec(u);
  return scheme === null || /^(https?|mailto|tel)$/i.test(scheme[1]);
}

/** What the user typed as a link address: `example.com` gets `https://`. */
function normalizeUrl(input: string): string {
  const u = input.trim();
  if (u === '' || /^[/?#]/.test(u) || /^[^/?#]*:/.test(u)) {
    return u;
  }
  return /^[^\s/?#]+\.[^\s/?#]+/.test(u) ? `https://${u}` : u;
}

interface ToolbarButton {
  key: string;
  label: string;
  pressed?: boolean;
  className?: string;
  run: () => void;
}

function Toolbar() {
  const [editor] = useLexicalComposerContext();
  const [formats, setFormats] = useState<Formats>(NONE);
  const [linkOpen, setLinkOpen] = useState(false);
  const [active, setActive] = useState('bold');
  const savedSelection = useRef<BaseSelection | null>(null);
  const toolbar = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const read = (state: EditorState) => {
      const next = state.read($formats);
      if (next) {
        setFormats((prev) =>
          prev.bold === next.bold &&
          prev.italic === next.italic &&
          prev.code === next.code &&
          prev.block === next.block &&
          prev.link === next.link
            ? prev
            : next,
        );
      }
    };
    read(editor.getEditorState());
    return editor.registerUpdateListener(({ editorState }) => read(editorState));
  }, [editor]);

  const format = (type: TextFormatType) => {
    editor.dispatchCommand(FORMAT_TEXT_COMMAND, type);
    editor.focus();
  };
  const setBlock = (block: Block, create: () => ElementNode) => {
    editor.update(() => $setBlocks(formats.block === block ? $createParagraphNode : create));
    editor.focus();
  };
  const list = (type: 'bullet' | 'number') => {
    if (formats.block === type) {
      editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined);
    } else {
      editor.dispatchCommand(
        type === 'bullet' ? INSERT_UNORDERED_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND,
        undefined,
      );
    }
    editor.focus();
  };
  const openLink = () => {
    savedSelection.current = editor.getEditorState().read(() => $getSelection()?.clone() ?? null);
    setLinkOpen(true);
  };
  const removeLink = () => {
    editor.dispatchCommand(TOGGLE_LINK_COMMAND, null);
    editor.focus();
  };

  const buttons: ToolbarButton[] = [
    { key: 'bold', label: 'Bold', pressed: formats.bold, className: 'rt-b-bold', run: () => format('bold') },
    {
      key: 'italic',
      label: 'Italic',
      pressed: formats.italic,
      className: 'rt-b-italic',
      run: () => format('italic'),
    },
    {
      key: 'code',
      label: 'Inline code',
      pressed: formats.code,
      className: 'rt-b-code',
      run: () => format('code'),
    },
    {
      key: 'h2',
      label: 'Heading 2',
      pressed: formats.block === 'h2',
      run: () => setBlock('h2', () => $createHeadingNode('h2')),
    },
    {
      key: 'h3',
      label: 'Heading 3',
      pressed: formats.block === 'h3',
      run: () => setBlock('h3', () => $createHeadingNode('h3')),
    },
    {
      key: 'paragraph',
      label: 'Paragraph',
      pressed: formats.block === 'paragraph',
      run: () => setBlock('paragraph', $createParagraphNode),
    },
    {
      key: 'bullet',
      label: 'Bulleted list',
      pressed: formats.block === 'bullet',
      run: () => list('bullet'),
    },
    {
      key: 'number',
      label: 'Numbered list',
      pressed: formats.block === 'number',
      run: () => list('number'),
    },
    {
      key: 'quote',
      label: 'Quote',
      pressed: formats.block === 'quote',
      run: () => setBlock('quote', $createQuoteNode),
    },
    { key: 'link', label: 'Link', run: openLink },
  ];
  if (formats.link !== null) {
    buttons.push({ key: 'unlink', label: 'Remove link', run: removeLink });
  }
  // Roving tabindex: the toolbar is one tab stop; the arrow keys, Home and End move within it.
  const current = buttons.some((b) => b.key === active) ? active : buttons[0].key;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = buttons.findIndex((b) => b.key === current);
    const to =
      e.key === 'ArrowRight'
        ? (index + 1) % buttons.length
        : e.key === 'ArrowLeft'
          ? (index - 1 + buttons.length) % buttons.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? buttons.length - 1
              : -1;
    if (to < 0) {
      return;
    }
    e.preventDefault();
    setActive(buttons[to].key);
    toolbar.current?.querySelectorAll('button')[to]?.focus();
  };

  return (
    <>
      <div ref={toolbar} role="toolbar" aria-label="Formatting" className="rt-toolbar" onKeyDown={onKeyDown}>
        {buttons.map((b) => (
          <button
            key={b.key}
            type="button"
            className={b.className}
            tabIndex={b.key === current ? 0 : -1}
            aria-pressed={b.pressed}
            aria-expanded={b.key === 'link' ? linkOpen : undefined}
            // Keeps the focus (and the selection) in the editor when clicked.
            onMouseDown={(e) => e.preventDefault()}
            onFocus={() => setActive(b.key)}
            onClick={b.run}
          >
            {b.label}
          </button>
        ))}
      </div>
      {linkOpen && (
        <LinkForm
          initial={formats.link ?? ''}
          onCancel={() => {
            setLinkOpen(false);
            editor.focus();
          }}
          onApply={(url) => {
            setLinkOpen(false);
            applyLink(editor, savedSelection.current, url);
            editor.focus();
          }}
        />
      )}
    </>
  );
}

/** Links the selection (or the link around it) to `url`; with nothing selected, inserts the URL linked. */
function applyLink(editor: LexicalEditor, saved: BaseSelection | null, url: string): void {
  editor.update(
    () => {
      if (saved) {
        $setSelection(saved.clone());
      }
    },
    { discrete: true },
  );
  const inserted = editor.getEditorState().read(() => {
    const selection = $getSelection();
    return (
      !$isRangeSelection(selection) ||
      (selection.isCollapsed() && $findMatchingParent(selection.anchor.getNode(), $isLinkNode) === null)
    );
  });
  if (inserted) {
    editor.update(() => {
      let selection = $getSelection();
      if (!$isRangeSelection(selection)) {
        $getRoot().selectEnd();
        selection = $getSelection();
      }
      if ($isRangeSelection(selection)) {
        selection.insertNodes([$createLinkNode(url).append($createTextNode(url))]);
      }
    });
  } else {
    editor.dispatchCommand(TOGGLE_LINK_COMMAND, url);
  }
}

/** The link address form, inline under the toolbar (a <div>: it sits inside the entry's <form>). */
function LinkForm(props: { initial: string; onApply: (url: string) => void; onCancel: () => void }) {
  const id = useId();
  const [url, setUrl] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const apply = () => {
    const normalized = normalizeUrl(url);
    if (!isSafeUrl(normalized)) {
      setError('Enter a web address (https://…), a mailto: or tel: address, or a path starting with /.');
      input.current?.focus();
      return;
    }
    props.onApply(normalized);
  };
  return (
    <div role="group" aria-labelledby={`${id}-title`} className="rt-link-form">
      <span id={`${id}-title`} className="visually-hidden">
        Link
      </span>
      <label htmlFor={`${id}-url`}>Link address</label>
      <input
        ref={input}
        id={`${id}-url`}
        type="url"
        inputMode="url"
        autoComplete="url"
        value={url}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setUrl(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            // Not the entry form's submission.
            e.preventDefault();
            apply();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            props.onCancel();
          }
        }}
      />
      <button type="button" className="button" onClick={apply}>
        Apply
      </button>
      <button type="button" className="button" onClick={props.onCancel}>
        Cancel
      </button>
      {error && (
        <p id={`${id}-error`} className="field-error rt-link-error">
          {error}
        </p>
      )}
    </div>
  );
}
