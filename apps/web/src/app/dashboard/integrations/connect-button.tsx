'use client';

import { useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { connect } from './actions';

type Props = {
  id: string;
  name: string;
  authMethod: 'oauth2' | 'api_key';
  /** Reconnect: the same flow for a connection the network stopped honouring. */
  verb?: 'Connect' | 'Reconnect';
};

/**
 * The publishing networks that connect with a key need more than the key (docs/publishing.md):
 * Bluesky the handle it belongs to and, off bsky.social, the PDS; Mastodon its instance.
 */
const KEY_FORMS: Record<
  string,
  {
    description: string;
    keyLabel: string;
    /** Set when the key may be left out (Mastodon: then the user signs in on the instance). */
    keyHint?: string;
    handle?: boolean;
    serviceUrl?: { label: string; hint: string; required: boolean };
  }
> = {
  bluesky: {
    description:
      'Create an app password in Bluesky (Settings → Privacy and security → App passwords).',
    keyLabel: 'App password',
    handle: true,
    serviceUrl: {
      label: 'PDS URL (optional)',
      hint: 'Leave empty for https://bsky.social.',
      required: false,
    },
  },
  mastodon: {
    description:
      'Give your instance and sign in there, or paste the access token of an application you created on it (Preferences → Development) with read:accounts, read:statuses, write:media and write:statuses.',
    keyLabel: 'Access token (optional)',
    keyHint: 'Leave empty to sign in on your instance.',
    serviceUrl: {
      label: 'Instance URL',
      hint: 'For example https://mastodon.social.',
      required: true,
    },
  },
};

/** OAuth: one button that leaves for the provider. API key: a dialog asking for the key. */
export function ConnectButton({ id, name, authMethod, verb = 'Connect' }: Props) {
  const [open, setOpen] = useState(false);
  const { result, form, pending } = useFormAction(connect, { onSuccess: () => setOpen(false) });
  const hidden = (
    <>
      <input type="hidden" name="integrationId" value={id} />
      <input type="hidden" name="name" value={name} />
    </>
  );
  if (authMethod === 'oauth2') {
    return (
      <form {...form} className="connect">
        {hidden}
        <button type="submit" className="primary" disabled={pending} aria-label={`${verb} ${name}`}>
          {verb}
        </button>
        {result.error && (
          <p className="error small" role="alert">
            {result.error}
          </p>
        )}
      </form>
    );
  }
  const keyForm = KEY_FORMS[id];
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={`${verb} ${name}`}
      description={
        keyForm
          ? `${keyForm.description} It is stored encrypted.`
          : `Paste an API key from your ${name} account. It is stored encrypted.`
      }
      trigger={
        <button type="button" className="primary" aria-label={`${verb} ${name}`}>
          {verb}
        </button>
      }
    >
      <form {...form} className="form">
        {hidden}
        {keyForm?.handle && (
          <Field
            label="Handle"
            name="handle"
            required
            placeholder="alice.bsky.social"
            autoComplete="username"
            error={result.fields?.handle}
          />
        )}
        {keyForm?.serviceUrl && (
          <Field
            label={keyForm.serviceUrl.label}
            name="serviceUrl"
            type="url"
            required={keyForm.serviceUrl.required}
            hint={keyForm.serviceUrl.hint}
            error={result.fields?.serviceUrl}
          />
        )}
        <Field
          label={keyForm?.keyLabel ?? 'API key'}
          name="apiKey"
          type="password"
          required={!keyForm?.keyHint}
          hint={keyForm?.keyHint}
          minLength={8}
          autoComplete="off"
          // The form's error goes here unless another field is the one at fault.
          error={
            result.fields?.apiKey ??
            (Object.keys(result.fields ?? {}).length > 0 ? undefined : result.error)
          }
        />
        <DialogActions submit={verb} pending={pending} />
      </form>
    </Dialog>
  );
}
