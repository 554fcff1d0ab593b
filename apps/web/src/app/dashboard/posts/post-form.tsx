'use client';

import { NETWORK_NAMES, type Channel, type Media, type Post } from '@chorus/validators';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Field, SelectField } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { fromInputIn, inputIn } from '~/components/zone-dates';
import { createPost, updatePost } from './actions';
import { channelInWords } from './channel-badge';
import { ChannelPicker } from './composer/channel-picker';
import { Counter, countsSpoken } from './composer/counter';
import {
  fieldOf,
  localIssues,
  lockReasons,
  mergeIssues,
  targetsOf,
  textOf,
  variantOf,
  variantsOfPost,
  type Draft,
  type Variant,
} from './composer/draft';
import { LockedVariant } from './composer/locked-variant';
import { useReportComposer } from './composer/composer-state';
import { composerStep } from './composer/step';
import { SubmitBar } from './composer/submit-bar';
import { useNextSlot } from './composer/use-next-slot';
import { useServerCheck } from './composer/use-server-check';
import { useUnsavedChanges } from './composer/use-unsaved-changes';
import { VariantPanel } from './composer/variant-panel';
import { VariantTabs } from './composer/variant-tabs';
import { MediaPicker } from './media-picker';
import { REPEATS, repeatsInWords, skippedMonthsNote } from './repeats';

type PostFormProps = {
  post?: Post;
  media: Media[];
  moreMedia: boolean;
  channels: Channel[];
  /** The account requires approval of this member's posts: they submit instead of scheduling. */
  submits?: boolean;
  /** The account's time zone: the time field is read and written on its clock. */
  zone: string;
  /** The form's id, for buttons elsewhere on the page that submit it (the Status panel's). */
  id?: string;
};

/** Channels can change while the post has not gone out (the API refuses it after). */
const channelsEditable = (post?: Post) =>
  !post || post.status === 'draft' || post.status === 'scheduled';

/** What a screen reader hears about the counts, once typing has paused for a second. */
function useSpokenLater(text: string) {
  const [spoken, setSpoken] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSpoken(text), 1000);
    return () => clearTimeout(timer);
  }, [text]);
  return spoken;
}

type ComposerProps = PostFormProps & {
  /** The time typed, shown again when a refused submission redrew the form (its draft saved). */
  typedWhen?: string;
  /** The Repeats choice: a series takes a slot free at each of its occurrences. */
  recurrence: string | null;
  fields: Record<string, string>;
  /** Fields after the composer's own, before its buttons. */
  children: ReactNode;
  checkedMedia: string[];
  pending: boolean;
  error?: string;
  onWhenChange: (when: string) => void;
  /** Told after each change of what the composer draws (the form's unsaved state may change). */
  onDraw: () => void;
  /** Versions of channels unticked since the page opened, by channel: ticked again, they return. */
  unticked: ReadonlyMap<string, Variant>;
  onUntick: (unticked: ReadonlyMap<string, Variant>) => void;
};

function Composer(props: ComposerProps) {
  const { post, media, moreMedia, channels, fields, pending } = props;
  const id = useId();
  const editable = channelsEditable(post);
  const [draft, setDraft] = useState<Draft>(() => ({
    content: post?.content ?? '',
    mediaIds: props.checkedMedia,
    variants: variantsOfPost(post),
  }));
  const channelById = useMemo(() => new Map(channels.map((c) => [c.id, c])), [channels]);
  const mediaById = useMemo(() => new Map(media.map((m) => [m.id, m])), [media]);
  const chosen = draft.variants.filter((v) => channelById.has(v.channelId));
  const targets = targetsOf(draft);
  const locks = lockReasons(draft.variants);
  const server = useServerCheck({
    content: draft.content,
    mediaIds: draft.mediaIds,
    targets: editable ? targets : [],
  });
  // A locked target is not sent again: what the server's check says of it holds nothing up.
  const unlocked = (issue: { path: string }) => {
    const { target } = fieldOf(issue.path);
    return target === undefined || !draft.variants[target]?.locked;
  };
  const issues = editable
    ? mergeIssues(localIssues(draft, channelById, mediaById), server.issues.filter(unlocked))
    : [];
  const step = composerStep(post?.status, props.submits ?? false);
  const nextSlot = useNextSlot({
    // Asked only where the button is offered.
    channelIds: step.next?.intent === 'schedule' ? chosen.map((v) => v.channelId) : [],
    recurrence: props.recurrence,
    postId: post?.id,
  });
  const issuesOf = (index: number) => issues.filter((i) => fieldOf(i.path).target === index);
  const spoken = useSpokenLater(
    countsSpoken(
      chosen.flatMap((v) => {
        const channel = channelById.get(v.channelId);
        return channel ? [{ channel, text: textOf(draft, v) }] : [];
      }),
    ),
  );
  const setVariant = (index: number, variant: Variant) =>
    setDraft((d) => ({ ...d, variants: d.variants.map((v, i) => (i === index ? variant : v)) }));
  // An unticked channel's version is kept while the page lives: its own text, media, thread
  // and first comment come back when it is ticked again, instead of being lost to a misclick.
  const toggle = (channelId: string, on: boolean) => {
    const unticked = new Map(props.unticked);
    if (on) {
      const kept = unticked.get(channelId) ?? variantOf(channelId);
      unticked.delete(channelId);
      setDraft((d) => ({ ...d, variants: [...d.variants, kept] }));
    } else {
      const leaving = draft.variants.find((v) => v.channelId === channelId && !v.locked);
      if (leaving) unticked.set(channelId, leaving);
      setDraft((d) => ({
        ...d,
        variants: d.variants.filter((v) => v.channelId !== channelId || v.locked),
      }));
    }
    props.onUntick(unticked);
  };
  // What the composer draws from its state (the targets' hidden field) may differ from the
  // post as saved only once drawn.
  const { onDraw } = props;
  useEffect(() => onDraw(), [draft, onDraw]);
  // A locked channel's text went out already: no counter for it under the shared text.
  const shared = chosen.filter((v) => !v.override && !v.locked);
  const contentError = fields.content;
  const blocked = server.checking
    ? 'Checking the text against each network’s rules…'
    : issues.length > 0
      ? `Fix ${issues.length === 1 ? 'this' : `these ${issues.length} problems`} first: ${issues.map((i) => i.message).join(' ')}`
      : null;
  useReportComposer({
    blocked,
    channels: chosen.map((v) => channelInWords(channelById.get(v.channelId))),
  });
  return (
    <>
      {editable && (
        <ChannelPicker
          channels={channels}
          chosen={draft.variants.map((v) => v.channelId)}
          locked={locks}
          onToggle={toggle}
          error={fields.targets}
          errorId={`${id}-channels-error`}
        />
      )}
      {editable && <input type="hidden" name="targets" value={JSON.stringify(targets)} />}
      <div className="field">
        <label htmlFor={`${id}-content`}>Content</label>
        <textarea
          id={`${id}-content`}
          name="content"
          rows={8}
          maxLength={50_000}
          value={draft.content}
          onChange={(event) => {
            const content = event.currentTarget.value;
            setDraft((d) => ({ ...d, content }));
          }}
          aria-invalid={contentError ? true : undefined}
          aria-describedby={
            [shared.length > 0 && `${id}-counts`, contentError && `${id}-content-error`]
              .filter(Boolean)
              .join(' ') || undefined
          }
        />
        {shared.length > 0 && (
          <div id={`${id}-counts`} className="counts">
            {shared.map((v) => {
              const channel = channelById.get(v.channelId);
              return channel ? (
                <Counter
                  key={v.channelId}
                  channel={channel}
                  text={draft.content}
                  id={`${id}-c-${v.channelId}`}
                />
              ) : null;
            })}
          </div>
        )}
        {contentError && (
          <small id={`${id}-content-error`} className="error">
            {contentError}
          </small>
        )}
      </div>
      <p className="sr-only" aria-live="polite">
        {spoken}
      </p>
      <MediaPicker
        media={media}
        checked={props.checkedMedia}
        more={moreMedia}
        error={fields.mediaIds}
        onChange={(mediaIds) => setDraft((d) => ({ ...d, mediaIds }))}
      />
      {editable && chosen.length > 0 && (
        <VariantTabs
          label="Each channel’s version"
          tabs={chosen.map((variant) => {
            const index = draft.variants.indexOf(variant);
            const channel = channelById.get(variant.channelId) as Channel;
            const count = issuesOf(index).length;
            return {
              key: variant.channelId,
              label: (
                <>
                  {channel.name} · {NETWORK_NAMES[channel.integrationId]}
                  {count > 0 && <span className="error"> ({count} to fix)</span>}
                </>
              ),
              panel: variant.locked ? (
                <LockedVariant
                  channel={channel}
                  locked={variant.locked}
                  reason={locks.get(variant.channelId) ?? ''}
                />
              ) : (
                <VariantPanel
                  channel={channel}
                  variant={variant}
                  shared={draft.content}
                  media={media}
                  sharedMedia={draft.mediaIds}
                  issues={issuesOf(index)}
                  onChange={(next) => setVariant(index, next)}
                />
              ),
            };
          })}
        />
      )}
      {props.children}
      {server.error && <p className="error small">The server’s check failed: {server.error}</p>}
      {props.error && !Object.keys(fields).length && (
        <p className="error" role="alert">
          {props.error}
        </p>
      )}
      <SubmitBar
        step={step}
        scheduledAt={post?.scheduledAt}
        zone={props.zone}
        typed={props.typedWhen}
        error={fields.scheduledAt ?? fields.schedule}
        pending={pending}
        blocked={blocked}
        nextSlot={nextSlot}
        id={id}
        onWhenChange={props.onWhenChange}
      />
    </>
  );
}

/**
 * How often a post repeats, from its time (a copy goes out at each occurrence). A rule set
 * through the API that is none of these stays offered as it is.
 */
function repeatOptions(current: string | null) {
  const options = [{ value: '', label: 'Does not repeat' }, ...REPEATS];
  if (current && !options.some((option) => option.value === current)) {
    options.push({ value: current, label: repeatsInWords(current) });
  }
  return options;
}

/**
 * Writes a new post (then goes to its page) or edits one: the shared text and media, the
 * channels it goes to with a version per channel, each counted as its network counts it and
 * checked by the server as the user types. A refusal keeps what was typed and checked.
 */
export function PostForm(props: PostFormProps) {
  const { post, media, moreMedia, channels, submits, zone } = props;
  const router = useRouter();
  // The time field holds the account's clock; the action takes an instant.
  const prepare = (form: FormData) => {
    form.set('scheduledAt', fromInputIn(String(form.get('scheduledAt') ?? ''), zone) ?? '');
  };
  const { result, form, pending } = useFormAction(post ? updatePost : createPost, { prepare });
  // A new post's page, also when it was saved but not submitted (the refusal is its toast).
  useEffect(() => {
    if (result.location) router.push(result.location);
  }, [result.location, router]);
  const fields = result.fields ?? {};
  const [recurrence, setRecurrence] = useState(post?.recurrence ?? '');
  // The time the series starts from, as typed: a monthly rule from the 29th to the 31st skips
  // the months without that day, which the Repeats field says.
  const [when, setWhen] = useState(() =>
    post?.scheduledAt ? inputIn(post.scheduledAt, zone) : '',
  );
  // Drawn anew when the saved post arrives from the server (a refusal leaves it as typed).
  const { ref, unsaved, recheck } = useUnsavedChanges(post?.updatedAt ?? '');
  const [unticked, setUnticked] = useState<ReadonlyMap<string, Variant>>(() => new Map());
  useReportComposer({ unsaved, pending });
  return (
    <form
      {...form}
      onInput={recheck}
      id={props.id}
      className="form composer"
      key={post?.updatedAt}
      ref={ref}
    >
      {post && <input type="hidden" name="id" value={post.id} />}
      <Field
        label="Title"
        name="title"
        required
        maxLength={300}
        defaultValue={post?.title}
        error={fields.title}
      />
      <Composer
        post={post}
        media={media}
        moreMedia={moreMedia}
        channels={channels}
        submits={submits}
        zone={zone}
        // A submission refused after its draft was saved draws the saved post: the time its
        // author wished for is not part of it.
        typedWhen={result.error ? when : undefined}
        recurrence={recurrence || null}
        fields={fields}
        checkedMedia={post?.mediaIds ?? []}
        pending={pending}
        error={result.error}
        onWhenChange={setWhen}
        onDraw={recheck}
        unticked={unticked}
        onUntick={setUnticked}
      >
        <Field
          label="Tags"
          name="tags"
          hint="Separated by commas, e.g. launch, news."
          defaultValue={post?.tags.join(', ')}
          error={fields.tags}
        />
        <SelectField
          label="Repeats"
          name="recurrence"
          options={repeatOptions(post?.recurrence ?? null)}
          defaultValue={post?.recurrence ?? ''}
          error={fields.recurrence}
          hint={skippedMonthsNote(recurrence || null, when)}
          onChange={setRecurrence}
        />
      </Composer>
    </form>
  );
}
