import { useState } from 'react';
import { content } from '../api';
import { splitProblem } from './shared';

interface PreviewToken {
  token: string;
  expiresAt: string;
  url?: string;
}

/**
 * "Preview": a preview token for the entry's newest state (draft included), opened on the site's
 * preview page in a new tab. Whether a page is configured is known only from the token's answer
 * (its `url`), so without one the button explains it in the page instead of opening anything.
 */
export function Preview({ path, what, dirty }: { path: string; what: string; dirty: boolean }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; link?: string; error?: boolean } | null>(null);
  const open = () => {
    // Opened now, in the click: a tab opened after the request's await would be taken for a popup
    // and blocked. It gets its address (or is closed) once the token is there.
    const tab = window.open('', '_blank');
    setBusy(true);
    setSaid(null);
    content<PreviewToken>('POST', `${path}/preview-token`, { body: {} })
      .then((answer) => {
        const until = new Date(answer.expiresAt).toLocaleString();
        if (!answer.url) {
          tab?.close();
          setSaid({
            text:
              `There is no preview page for ${what}: a developer sets its address (the preview URL) ` +
              'in the configuration, and then this button opens it.',
          });
          return;
        }
        if (tab) {
          // The preview site gets no handle on this app.
          tab.opener = null;
          tab.location.href = answer.url;
          setSaid({
            text:
              `The preview opened in a new tab. Its link works until ${until}.` +
              (dirty ? ' It shows what is saved: your unsaved changes are not in it.' : ''),
          });
        } else {
          setSaid({
            text: `The browser did not open a tab. The preview link works until ${until}:`,
            link: answer.url,
          });
        }
      })
      .catch((e: unknown) => {
        tab?.close();
        setSaid({ text: splitProblem(e, []).rest, error: true });
      })
      .finally(() => setBusy(false));
  };
  return (
    <div className="preview">
      <button type="button" className="button" disabled={busy} onClick={open}>
        Preview
      </button>
      <div role="status" className="preview-said">
        {said && !said.error && (
          <p>
            {said.text}{' '}
            {said.link && (
              <a href={said.link} target="_blank" rel="noopener noreferrer">
                Open the preview
              </a>
            )}
          </p>
        )}
      </div>
      {said?.error && (
        <p role="alert" className="error">
          {said.text}
        </p>
      )}
    </div>
  );
}
