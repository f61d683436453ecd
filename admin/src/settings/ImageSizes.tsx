import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { components } from '../../../src/client';
import { ApiError, api, unwrap } from '../api';
import {
  Field,
  type FormState,
  Regions,
  text,
  useAction,
  useForm,
  useMessages,
  WithMessages,
} from '../auth/messages';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import { when } from '../account/shared';
import { numberOrNull, SelectField, useDocumentTitle, useSettingsReport } from './shared';

type ImageSize = components['schemas']['ImageSize'];
type SizeBody = components['schemas']['CreateImageSizeDto'];
type Regeneration = components['schemas']['ImageRegeneration'];

const FITS = [
  { value: 'inside', label: 'Inside: the whole image within the box' },
  { value: 'cover', label: 'Cover: cropped to fill the box' },
  { value: 'contain', label: 'Contain: the whole image, letterboxed' },
];
const FORMATS = [
  { value: '', label: 'Same as the uploaded image' },
  { value: 'webp', label: 'WebP' },
  { value: 'jpeg', label: 'JPEG' },
  { value: 'png', label: 'PNG' },
  { value: 'avif', label: 'AVIF' },
];
const fitWord = (fit: ImageSize['fit']) => fit[0].toUpperCase() + fit.slice(1);
const formatWord = (format: ImageSize['format']) =>
  FORMATS.find((f) => f.value === (format ?? ''))?.label ?? String(format);

const loadSizes = async () =>
  (await unwrap(api.GET('/admin/api/image-sizes', { params: { query: { limit: 100, sort: 'name' } } })))
    .items;

/** `/settings/image-sizes`: the sizes uploaded images are made in, a new one, and regeneration. */
export function ImageSizes() {
  useDocumentTitle('Image sizes');
  return (
    <WithMessages>
      <Title>Image sizes</Title>
      <p className="hint">
        Every uploaded image is also made in each of these sizes. A new or changed size applies to later
        uploads; regenerate to remake the stored images.
      </p>
      <Regions />
      <SizeList />
      <NewSize />
      <Regenerate />
    </WithMessages>
  );
}

function SizeList() {
  const queryClient = useQueryClient();
  const messages = useMessages();
  const report = useSettingsReport();
  const action = useAction();
  const sizes = useQuery({ queryKey: ['image-sizes'], queryFn: loadSizes });
  if (sizes.isPending) {
    return <p className="loading">Loading…</p>;
  }
  if (sizes.error) {
    return (
      <p role="alert" className="error">
        {sizes.error.message}
      </p>
    );
  }
  return (
    <div className="table-scroll" role="region" aria-labelledby="image-sizes-caption" tabIndex={0}>
      <table id="image-sizes-table">
        <caption id="image-sizes-caption" className="visually-hidden">
          Image sizes
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Width</th>
            <th scope="col">Height</th>
            <th scope="col">Fit</th>
            <th scope="col">Format</th>
            <th scope="col">Quality</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {sizes.data.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <Link to={`/settings/image-sizes/${s.id}`}>{s.name}</Link>
              </th>
              <td>{s.width ?? 'Any'}</td>
              <td>{s.height ?? 'Any'}</td>
              <td>{fitWord(s.fit)}</td>
              <td>{formatWord(s.format)}</td>
              <td>{s.quality ?? 'Default'}</td>
              <td>
                <ConfirmButton
                  label="Delete"
                  title="Delete this image size"
                  isDisabled={action.busy}
                  onConfirm={() =>
                    action.run(async () => {
                      try {
                        await unwrap(
                          api.DELETE('/admin/api/image-sizes/{id}', { params: { path: { id: s.id } } }),
                        );
                        await queryClient.invalidateQueries({ queryKey: ['image-sizes'] });
                        messages.showNotice(`The image size ${s.name} is deleted.`);
                      } catch (e) {
                        report(e);
                      }
                    })
                  }
                >
                  Delete the size “{s.name}”? The stored images’ files in this size are removed too. This
                  cannot be undone.
                </ConfirmButton>
              </td>
            </tr>
          ))}
          {sizes.data.length === 0 && (
            <tr>
              <td colSpan={7}>There is no image size yet.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function NewSize() {
  const queryClient = useQueryClient();
  const messages = useMessages();
  const report = useSettingsReport();
  const [key, setKey] = useState(0);
  return (
    <section aria-labelledby="new-image-size-title" className="panel">
      <h2 id="new-image-size-title">New image size</h2>
      <SizeForm
        key={key}
        prefix="new-size"
        submitLabel="Add size"
        onSubmit={async (body, form) => {
          try {
            const r = await unwrap(api.POST('/admin/api/image-sizes', { body }));
            await queryClient.invalidateQueries({ queryKey: ['image-sizes'] });
            setKey((k) => k + 1);
            messages.showNotice(
              `The image size ${r.item.name} is added. Regenerate to make it for stored images.`,
            );
          } catch (e) {
            report(e, form);
          }
        }}
      />
    </section>
  );
}

function SizeForm({
  prefix,
  initial,
  submitLabel,
  onSubmit,
}: {
  prefix: string;
  initial?: ImageSize;
  submitLabel: string;
  onSubmit: (body: SizeBody, form: FormState) => Promise<void>;
}) {
  const form = useForm();
  return (
    <form
      className="editor"
      aria-label={initial ? `The size ${initial.name}` : 'New image size'}
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        const format = text(data, 'format');
        await onSubmit(
          {
            name: text(data, 'name').trim(),
            width: numberOrNull(data.get('width')),
            height: numberOrNull(data.get('height')),
            fit: text(data, 'fit') as SizeBody['fit'],
            // Null is the source's format: the API takes it, though its document types only the names.
            format: (format || null) as SizeBody['format'],
            quality: numberOrNull(data.get('quality')),
          },
          form,
        );
      })}
    >
      <Field
        id={`${prefix}-name`}
        name="name"
        label="Name"
        maxLength={64}
        spellCheck={false}
        autoCapitalize="none"
        defaultValue={initial?.name}
        hint="a-z, 0-9, _ and -: it names the size in media records and addresses (thumbnail)."
        errors
        form={form}
      />
      <div className="pair">
        <Field
          id={`${prefix}-width`}
          name="width"
          label="Width (pixels)"
          type="number"
          inputMode="numeric"
          required={false}
          defaultValue={initial?.width ?? ''}
          errors
          form={form}
        />
        <Field
          id={`${prefix}-height`}
          name="height"
          label="Height (pixels)"
          type="number"
          inputMode="numeric"
          required={false}
          defaultValue={initial?.height ?? ''}
          errors
          form={form}
        />
      </div>
      <p className="hint">At least one of width and height; images are never enlarged.</p>
      <SelectField
        id={`${prefix}-fit`}
        name="fit"
        label="Fit"
        defaultValue={initial?.fit ?? 'inside'}
        options={FITS}
        form={form}
      />
      <SelectField
        id={`${prefix}-format`}
        name="format"
        label="Format"
        defaultValue={initial?.format ?? ''}
        options={FORMATS}
        form={form}
      />
      <Field
        id={`${prefix}-quality`}
        name="quality"
        label="Quality (optional)"
        type="number"
        inputMode="numeric"
        required={false}
        defaultValue={initial?.quality ?? ''}
        hint="1 to 100, for JPEG, WebP and AVIF; empty for the default."
        errors
        form={form}
      />
      <div className="actions">
        <button type="submit" className="button primary">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** `/settings/image-sizes/:id`: one size's settings. */
export function ImageSizeScreen() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  // The API has no read of one size: it is found in the list.
  const sizes = useQuery({ queryKey: ['image-sizes'], queryFn: loadSizes });
  const size = sizes.data?.find((s) => s.id === id);
  useDocumentTitle(size ? `Image size ${size.name}` : 'Image size');
  return (
    <WithMessages key={id}>
      <p className="crumbs">
        <Link to="/settings/image-sizes">Image sizes</Link>
      </p>
      <Title>{size ? `Image size: ${size.name}` : sizes.data ? 'Not found' : 'Image size'}</Title>
      <Regions />
      {sizes.isPending && <p className="loading">Loading…</p>}
      {sizes.error && (
        <p role="alert" className="error">
          {sizes.error.message}
        </p>
      )}
      {sizes.data && !size && <p>There is no such image size.</p>}
      {size && (
        <EditSize size={size} onSaved={() => queryClient.invalidateQueries({ queryKey: ['image-sizes'] })} />
      )}
    </WithMessages>
  );
}

function EditSize({ size, onSaved }: { size: ImageSize; onSaved: () => Promise<void> }) {
  const messages = useMessages();
  const report = useSettingsReport();
  return (
    <SizeForm
      prefix="size"
      initial={size}
      submitLabel="Save"
      onSubmit={async (body, form) => {
        try {
          const r = await unwrap(
            api.PATCH('/admin/api/image-sizes/{id}', { params: { path: { id: size.id } }, body }),
          );
          await onSaved();
          messages.showNotice(`The image size ${r.item.name} is saved. Regenerate to remake stored images.`);
        } catch (e) {
          report(e, form);
        }
      }}
    />
  );
}

const RUNNING: Array<Regeneration['status']> = ['queued', 'running'];

/** The latest run's state in words. */
function stateText(run: Regeneration): string {
  const counts = `${run.processed} of ${run.total} images done${run.failed ? `, ${run.failed} failed` : ''}`;
  switch (run.status) {
    case 'idle':
      return 'The images have never been regenerated.';
    case 'queued':
      return 'Regeneration is queued.';
    case 'running':
      return `Regenerating: ${counts}.`;
    case 'done':
      return `Regeneration finished${run.finishedAt ? ` at ${when(run.finishedAt)}` : ''}: ${counts}.`;
    case 'failed':
      return `Regeneration failed: ${counts}.${run.error ? ` ${run.error}` : ''}`;
  }
}

/** "Regenerate" and the latest run's progress, read again every second while it runs. */
function Regenerate() {
  const queryClient = useQueryClient();
  const report = useSettingsReport();
  const action = useAction();
  const status = useQuery({
    queryKey: ['image-regeneration'],
    queryFn: () => unwrap(api.GET('/admin/api/image-sizes/regeneration-status')),
    refetchInterval: (query) =>
      query.state.data && RUNNING.includes(query.state.data.status) ? 1000 : false,
  });
  const run = status.data;
  const running = run !== undefined && RUNNING.includes(run.status);
  return (
    <section aria-labelledby="regenerate-title" className="panel">
      <h2 id="regenerate-title">Regenerate stored images</h2>
      <p className="hint" id="regenerate-hint">
        Makes every stored image again in the current sizes, in the background, and removes the files of sizes
        that no longer exist.
      </p>
      {run && (
        <div className="progress">
          <label htmlFor="regeneration-progress">Regeneration progress</label>
          <progress
            id="regeneration-progress"
            max={Math.max(run.total, 1)}
            value={
              run.status === 'queued' ? undefined : run.status === 'idle' ? 0 : run.total ? run.processed : 1
            }
            aria-describedby="regeneration-state"
          />
          <p id="regeneration-state" role="status" aria-live="polite" aria-atomic="true">
            {stateText(run)}
          </p>
        </div>
      )}
      {status.error && (
        <p role="alert" className="error">
          {status.error.message}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="button"
          aria-describedby="regenerate-hint"
          disabled={running || action.busy}
          onClick={() =>
            action.run(async () => {
              try {
                const r = await unwrap(api.POST('/admin/api/image-sizes/regenerate'));
                queryClient.setQueryData(['image-regeneration'], r.item);
              } catch (e) {
                report(e);
                if (e instanceof ApiError && e.status === 409) {
                  await queryClient.invalidateQueries({ queryKey: ['image-regeneration'] });
                }
              }
            })
          }
        >
          Regenerate
        </button>
      </div>
    </section>
  );
}
