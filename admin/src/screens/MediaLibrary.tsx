import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { content, type ListMeta } from '../api';
import { Pager } from './Pager';
import { Title } from './Title';

export interface MediaItem {
  id: string;
  filename?: string;
  mimeType?: string;
  filesize?: number;
  width?: number | null;
  height?: number | null;
  alt?: string | null;
  caption?: string | null;
  url?: string;
  sizes?: Record<string, { url: string; width: number; height: number }>;
}

interface Upload {
  key: string;
  name: string;
  /** 0 to 1 while sending; the outcome after. */
  progress: number;
  error?: string;
  done?: boolean;
}

/** The smallest image size for a thumbnail, else the file itself when it is an image. */
export function thumbnailOf(item: MediaItem): string | undefined {
  const sizes = Object.values(item.sizes ?? {}).sort((a, b) => a.width - b.width);
  if (sizes.length) {
    return sizes[0].url;
  }
  return item.mimeType?.startsWith('image/') ? item.url : undefined;
}

let csrf: Promise<string> | undefined;
function csrfToken(): Promise<string> {
  csrf ??= fetch('/admin/api/auth/csrf', { credentials: 'include' })
    .then((r) => r.json() as Promise<{ csrfToken: string }>)
    .then((b) => b.csrfToken);
  return csrf;
}

/**
 * Sends one file as the service's multipart upload, reporting progress (fetch cannot report an
 * upload's progress; XMLHttpRequest can).
 */
export async function send(file: File, onProgress: (fraction: number) => void): Promise<MediaItem> {
  const token = await csrfToken();
  return new Promise<MediaItem>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/admin/api/collections/media/entries');
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve((JSON.parse(xhr.responseText) as { item: MediaItem }).item);
        return;
      }
      try {
        const body = JSON.parse(xhr.responseText) as { error?: { message?: string } };
        reject(new Error(body.error?.message ?? `The service answered ${xhr.status}`));
      } catch {
        reject(new Error(`The service answered ${xhr.status}`));
      }
    };
    xhr.onerror = () => reject(new Error('The upload failed: no answer from the service'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** The media library: a grid of the uploaded files, uploads by picking or dropping several at once. */
export function MediaLibrary() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const list = useQuery({
    queryKey: ['entries', 'media', { page }],
    queryFn: () =>
      content<{ items: MediaItem[]; meta: ListMeta }>('GET', '/collections/media/entries', {
        query: { page, limit: 24, sort: '-createdAt' },
      }),
    placeholderData: (previous) => previous,
  });
  const upload = (files: FileList | File[]) => {
    const batch = [...files].map((file, i) => ({ file, key: `${Date.now()}-${i}-${file.name}` }));
    setUploads((u) => [...batch.map(({ file, key }) => ({ key, name: file.name, progress: 0 })), ...u]);
    const update = (key: string, change: Partial<Upload>) =>
      setUploads((u) => u.map((x) => (x.key === key ? { ...x, ...change } : x)));
    for (const { file, key } of batch) {
      send(file, (progress) => update(key, { progress }))
        .then(() => update(key, { progress: 1, done: true }))
        .catch((e: Error) => update(key, { error: e.message }))
        .finally(() => void queryClient.invalidateQueries({ queryKey: ['entries', 'media'] }));
    }
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) {
      upload(e.dataTransfer.files);
    }
  };
  const meta = list.data?.meta;
  return (
    <>
      <Title>Media</Title>
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <p>Drop files here, or</p>
        <label className="button primary" htmlFor="media-files">
          Choose files to upload
        </label>
        <input
          ref={input}
          id="media-files"
          className="visually-hidden"
          type="file"
          multiple
          onChange={(e) => {
            if (e.target.files?.length) {
              upload(e.target.files);
              e.target.value = '';
            }
          }}
        />
      </div>
      {uploads.length > 0 && (
        <ul className="uploads" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key}>
              <span>{u.name}</span>{' '}
              {u.error ? (
                <span className="error">{u.error}</span>
              ) : u.done ? (
                <span>uploaded</span>
              ) : (
                <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
              )}
            </li>
          ))}
        </ul>
      )}
      {list.error && <p role="alert">{list.error.message}</p>}
      {list.data && list.data.items.length === 0 && <p>No files yet.</p>}
      <ul className="media-grid" aria-label="Files">
        {list.data?.items.map((item) => {
          const thumb = thumbnailOf(item);
          return (
            <li key={item.id} className="media-card">
              <Link to={`/collections/media/${item.id}`}>
                {thumb ? (
                  <img src={thumb} alt={item.alt ?? ''} loading="lazy" width={160} height={120} />
                ) : (
                  <span className="file-type">{item.mimeType}</span>
                )}
                <span className="name">{item.filename}</span>
              </Link>
              {item.width && item.height ? (
                <span className="muted">
                  {item.width} × {item.height}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {meta && meta.totalPages > 1 && (
        <Pager meta={meta} one="file" many="files" go={(n) => setParams({ page: String(n) })} />
      )}
    </>
  );
}
